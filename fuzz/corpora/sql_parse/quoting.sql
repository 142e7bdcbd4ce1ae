SELECT 'VERSION AS OF 1', `a``b`, "c""d" /* nested /* c */ */ FROM `t"; DROP TABLE x; --`.`x'y` -- x
;; SELECT 'it''s';