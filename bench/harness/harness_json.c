/* Minimal JSON writing for the harness. */
#include "harness_json.h"

void wb_json_string(FILE* out, const char* text) {
  if (!text) {
    fputs("null", out);
    return;
  }
  fputc('"', out);
  for (const unsigned char* c = (const unsigned char*)text; *c; ++c) {
    if (*c == '"' || *c == '\\')
      fprintf(out, "\\%c", *c);
    else if (*c < 0x20)
      fprintf(out, "\\u%04x", *c);
    else
      fputc(*c, out);
  }
  fputc('"', out);
}

static void separator(FILE* out, int last) {
  fputs(last ? "" : ", ", out);
}

void wb_json_field_string(FILE* out, const char* key, const char* value, int last) {
  wb_json_string(out, key);
  fputs(": ", out);
  wb_json_string(out, value);
  separator(out, last);
}

void wb_json_field_number(FILE* out, const char* key, double value, int last) {
  wb_json_string(out, key);
  fprintf(out, ": %.17g", value);
  separator(out, last);
}

void wb_json_field_numbers(FILE* out, const char* key, const double* values, long n, int last) {
  wb_json_string(out, key);
  fputs(": [", out);
  for (long i = 0; i < n; ++i)
    fprintf(out, i ? ", %.6g" : "%.6g", values[i]);
  fputc(']', out);
  separator(out, last);
}

void wb_json_close_bool(FILE* out, const char* key, int value) {
  wb_json_string(out, key);
  fputs(value ? ": true}\n" : ": false}\n", out);
}
