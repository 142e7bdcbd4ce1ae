-- String functions and pattern matching.
-- case: like_case_sensitive
SELECT 'Apple' LIKE 'a%' AS a, 'apple' LIKE 'a%' AS b
-- case: like_underscore
SELECT 'abc' LIKE 'a_c' AS a, 'abbc' LIKE 'a_c' AS b
-- case: not_like
SELECT 'abc' NOT LIKE 'b%' AS a
-- case: like_null
SELECT NULL LIKE 'a%' AS a
-- case: like_escape
SELECT 'a_c' LIKE 'a\\_c' AS a, 'abc' LIKE 'a\\_c' AS b
-- case: ilike
SELECT 'Apple' ILIKE 'a%' AS a, 'xyz' ILIKE 'A%' AS b
-- case: rlike_case
SELECT 'Apple' RLIKE '^a' AS a, 'apple' RLIKE '^a' AS b
-- case: regexp_op
SELECT 'abc123' REGEXP '[0-9]+' AS a
-- case: like_any
SELECT 'banana' LIKE ANY ('a%', 'b%') AS a, 'cherry' LIKE ANY ('a%', 'b%') AS b
-- case: like_all
SELECT 'abc' LIKE ALL ('a%', '%c') AS a, 'abd' LIKE ALL ('a%', '%c') AS b
-- case: not_like_any
SELECT 'abc' NOT LIKE ANY ('a%', 'x%') AS a
-- case: like_any_table
SELECT id FROM db.t WHERE s LIKE ANY ('a%', 'B%')
-- case: upper_lower
SELECT upper('abc') AS a, lower('ABC') AS b, ucase('x') AS c, lcase('Y') AS d
-- case: length
SELECT length('hello') AS a, length('') AS b, char_length('ab') AS c, length(NULL) AS d
-- case: length_unicode
SELECT length('héllo') AS a
-- case: substr
SELECT substr('hello', 2, 3) AS a, substring('hello', 2) AS b, substr('hello', -3) AS c
-- case: substr_zero
SELECT substr('hello', 0, 2) AS a
-- case: left_right
SELECT left('hello', 2) AS a, right('hello', 2) AS b
-- case: concat
SELECT concat('a', 'b', 'c') AS a, concat('a', NULL) AS b
-- case: concat_pipes
SELECT 'a' || 'b' AS a
-- case: concat_ws
SELECT concat_ws('-', 'a', 'b', 'c') AS a, concat_ws('-', 'a', NULL, 'c') AS b
-- case: concat_ws_array
SELECT concat_ws(',', array('x', 'y')) AS a
-- case: trim
SELECT trim('  a  ') AS a, ltrim('  a') AS b, rtrim('a  ') AS c
-- case: trim_chars
SELECT trim(BOTH 'x' FROM 'xxaxx') AS a
-- case: lpad_rpad
SELECT lpad('5', 3, '0') AS a, rpad('ab', 4, '*') AS b, lpad('hello', 2, '0') AS c
-- case: replace
SELECT replace('aXbXc', 'X', '-') AS a
-- case: instr_locate
SELECT instr('hello', 'l') AS a, locate('l', 'hello') AS b, locate('z', 'hello') AS c
-- case: reverse
SELECT reverse('abc') AS a
-- case: repeat
SELECT repeat('ab', 3) AS a
-- case: initcap
SELECT initcap('hello world') AS a
-- case: split
SELECT split('a,b,c', ',') AS a
-- case: split_size
SELECT size(split('a,b,c', ',')) AS a
-- case: split_index
SELECT split('a,b,c', ',')[1] AS a
-- case: split_part
SELECT split_part('a,b,c', ',', 2) AS a
-- case: regexp_replace
SELECT regexp_replace('a1b22c', '[0-9]+', '#') AS a
-- case: regexp_extract
SELECT regexp_extract('abc123def', '([0-9]+)', 1) AS a
-- case: ascii_chr
SELECT ascii('A') AS a, chr(66) AS b
-- case: startswith
SELECT startswith('hello', 'he') AS a, endswith('hello', 'lo') AS b
-- case: contains
SELECT contains('hello', 'ell') AS a
-- case: string_compare
SELECT 'a' < 'b' AS a, 'B' < 'a' AS b
-- case: md5
SELECT md5('abc') AS a
-- case: sha2
SELECT sha2('abc', 256) AS a
-- case: base64
SELECT base64('abc') AS a
-- case: format_number
SELECT format_number(1234567.891, 2) AS a
-- case: format_string
SELECT format_string('%d-%s', 5, 'x') AS a
-- case: format_number_rounding
SELECT format_number(0.125d, 2) AS a, format_number(CAST(1.015 AS DECIMAL(4,3)), 2) AS b, format_number(-0.004, 2) AS c, format_number(12345, 1) AS d, format_number(1234567.891, 0) AS e, format_number(1, -1) AS f, format_number(NULL, 2) AS g
-- case: format_number_wide_decimal
SELECT format_number(CAST('123456789012345678.125' AS DECIMAL(21,3)), 2) AS a, format_number(CAST('-987654321.5' AS DECIMAL(10,1)), 0) AS b
-- case: format_string_flags
SELECT format_string('%5.2f|%-4s|%04d|%x|%,d|%S|%b|%%|%2$s', 3.14159d, 'ab', 7, 255, 1234567, 'hi', NULL) AS a, format_string('%s and %s', 'x', NULL) AS b, printf('%e', 12345.678d) AS c
-- case: translate
SELECT translate('abc', 'ab', 'xy') AS a
-- case: space
SELECT concat('[', space(3), ']') AS a
-- case: get_json_object
SELECT get_json_object('{"a":{"b":2}}', '$.a.b') AS a
-- case: string_escape_backslash
SELECT 'a\\b' AS a
-- case: like_unicode_underscore
SELECT 'héllo' LIKE 'h_llo' AS a
-- case: like_any_null
SELECT 'a' LIKE ANY ('x%', NULL) AS a, 'a' LIKE ANY ('a%', NULL) AS b
-- case: like_all_null
SELECT 'a' LIKE ALL ('a%', NULL) AS a, 'a' LIKE ALL ('x%', NULL) AS b
-- case: ilike_any
SELECT 'Banana' ILIKE ANY ('x%', 'B%') AS a
-- case: not_like_any_false
SELECT 'abc' NOT LIKE ANY ('a%', '%c') AS a
-- case: not_like_all
SELECT 'abc' NOT LIKE ALL ('x%', 'y%') AS a, 'abc' NOT LIKE ALL ('a%', 'y%') AS b
-- case: like_all_table
SELECT id FROM db.t WHERE s LIKE ALL ('a%', '%e')
-- case: ilike_column_upper
SELECT id FROM db.t WHERE s ILIKE '%AN%'
-- case: rlike_column
SELECT id FROM db.t WHERE s RLIKE '^[ab]'
-- case: like_percent_only
SELECT '' LIKE '%' AS a, NULL LIKE '%' AS b
-- case: substr_edges
SELECT substr('hello', -10, 7) AS a, substr('hello', 2, -1) AS b, substr('héllo', 2, 2) AS c, substr(NULL, 1) AS d
-- case: left_right_edges
SELECT left('hé', 9) AS a, right('abc', 0) AS b, left(NULL, 1) AS c, right('héllo', 3) AS d
-- case: lpad_rpad_edges
SELECT lpad('a', 5, 'xy') AS a, concat('[', rpad('é', 3), ']') AS b, lpad('a', 3, '') AS c, lpad('a', -1, 'x') AS d, rpad(NULL, 2, 'x') AS e
-- case: locate_edges
SELECT locate('l', 'hello', 4) AS a, locate('l', 'hello', 0) AS b, locate('', 'abc', 2) AS c, locate('é', 'héé', 3) AS d, instr('héllo', 'l') AS e
-- case: reverse_repeat_edges
SELECT reverse('héllo') AS a, repeat('x', -1) AS b, repeat(NULL, 2) AS c, reverse('') AS d
-- case: initcap_edges
SELECT initcap('hello wORLD  x') AS a, initcap('') AS b, initcap('a-b c_d') AS c
-- case: affix_edges
SELECT contains('a', '') AS a, startswith(NULL, 'a') AS b, endswith('abc', 'abcd') AS c, contains('héllo', 'él') AS d
-- case: translate_edges
SELECT translate('abcab', 'abc', 'x') AS a, translate('héllo', 'é', 'e') AS b, translate('aaa', 'aa', 'xy') AS c
-- case: ascii_chr_edges
SELECT ascii('') AS a, ascii('é') AS b, chr(-1) AS c, chr(321) AS d, chr(233) AS e
-- case: split_part_edges
SELECT split_part('a,b,c', ',', -1) AS a, split_part('a,b,c', ',', 5) AS b, split_part('a,,b', ',', 3) AS c, split_part('abc', '', 1) AS d, split_part('a::b::c', '::', 2) AS e
-- case: hash_edges
SELECT md5('') AS a, sha2('abc', 0) AS b, sha2('abc', 1) AS c, base64('') AS d, md5(NULL) AS e
-- case: space_edges
SELECT concat('[', space(0), ']') AS a, concat('[', space(-2), ']') AS b
-- case: regexp_replace_edges
SELECT regexp_replace('abc', '(b)', '[$1]') AS a, regexp_replace('aaa', 'a', 'b', 2) AS b, regexp_replace(NULL, 'a', 'b') AS c, regexp_replace('héllo', 'l+', 'L') AS d
-- case: regexp_extract_edges
SELECT regexp_extract('abc', '([0-9]+)', 1) AS a, regexp_extract('ab', '(a)|(x)', 2) AS b, regexp_extract('a1', '[a-z][0-9]', 0) AS c, regexp_extract('x-y', '([a-z])-([a-z])') AS d
-- case: split_edges
SELECT size(split('a,b,', ',')) AS a, size(split('', ',')) AS b, split('a,b,c', ',', 2)[1] AS c, size(split('abc', '')) AS d, split('a1b2', '[0-9]')[1] AS e
