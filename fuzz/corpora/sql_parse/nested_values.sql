INSERT INTO n.t VALUES (1, array('a', NULL), map('x', 1, 2, NULL), named_struct('street', 'Main', 'zip', 1), array(named_struct('a', 1, 'b', map('k', array(1.5)))));
INSERT INTO n.t VALUES (2, '["j"]', '{"m":-1}', struct('S', 7), NULL);
SELECT id, tags[0], attrs['x'], addr.street, t.addr.zip, nested[0].b['k'][1], size(tags) FROM n.t AS t WHERE array_contains(tags, 'a');
