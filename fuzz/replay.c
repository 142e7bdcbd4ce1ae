/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Standalone replay driver: runs LLVMFuzzerTestOneInput over every file of a
 * corpus directory (or the files given), so each fuzz corpus is a regression
 * test under gcc and ASan in ctest. Prints `N passed, N failed`.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return -1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
    size_t got = fread(buf, 1, (size_t)(n > 0 ? n : 0), f);
    fclose(f);
    LLVMFuzzerTestOneInput(buf, got);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int passed = 0, failed = 0;
    for (int a = 1; a < argc; a++) {
        struct stat st;
        if (stat(argv[a], &st) != 0) {
            fprintf(stderr, "missing corpus %s\n", argv[a]);
            failed++;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            (run_file(argv[a]) == 0) ? passed++ : failed++;
            continue;
        }
        DIR *d = opendir(argv[a]);
        struct dirent *e;
        while (d && (e = readdir(d))) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[a], e->d_name);
            (run_file(path) == 0) ? passed++ : failed++;
        }
        if (d)
            closedir(d);
    }
    /* Reaching here means no input crashed (ASan aborts the process on one). */
    printf("%d passed, %d failed\n", passed, failed);
    return failed || passed == 0 ? 1 : 0;
}
