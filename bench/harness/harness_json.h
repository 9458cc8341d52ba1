/* Minimal JSON writing for the harness: one object per line on stdout. */
#ifndef WB_HARNESS_JSON_H
#define WB_HARNESS_JSON_H

#include <stdio.h>

/* Writes `text` as a JSON string literal (quotes and escapes included); NULL writes null. */
void wb_json_string(FILE* out, const char* text);
/* Writes `"key": "value", ` (value escaped); last != 0 leaves out the trailing comma. */
void wb_json_field_string(FILE* out, const char* key, const char* value, int last);
/* Writes `"key": number, ` with full precision; last != 0 leaves out the trailing comma. */
void wb_json_field_number(FILE* out, const char* key, double value, int last);
/* Writes `"key": [v0, v1, ...], `; last != 0 leaves out the trailing comma. */
void wb_json_field_numbers(FILE* out, const char* key, const double* values, long n, int last);
/* Ends the line's object with `"key": true}` or `"key": false}` and a newline. */
void wb_json_close_bool(FILE* out, const char* key, int value);

#endif /* WB_HARNESS_JSON_H */
