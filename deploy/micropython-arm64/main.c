// The hot path's MicroPython (deploy/micropython-arm64): `micropython FILE` or
// `micropython -c CODE`, modules imported from the working directory and MICROPYPATH's first
// entry, and `time.time_ns()`: what tests/micropython/bench_payload.py needs.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "py/builtin.h"
#include "py/compile.h"
#include "py/gc.h"
#include "py/lexer.h"
#include "py/mperrno.h"
#include "py/runtime.h"
#include "py/stackctrl.h"
#include "shared/runtime/gchelper.h"

static char heap[16 * 1024 * 1024];

void mp_hal_stdout_tx_strn_cooked(const char *str, size_t len) {
    fwrite(str, 1, len, stdout);
}

mp_uint_t mp_hal_stdout_tx_strn(const char *str, size_t len) {
    return fwrite(str, 1, len, stdout);
}

void gc_collect(void) {
    gc_collect_start();
    gc_helper_collect_regs_and_stack();
    gc_collect_end();
}

mp_import_stat_t mp_import_stat(const char *path) {
    struct stat st;
    if (stat(path, &st) == 0) {
        return S_ISDIR(st.st_mode) ? MP_IMPORT_STAT_DIR : MP_IMPORT_STAT_FILE;
    }
    return MP_IMPORT_STAT_NO_EXIST;
}

void nlr_jump_fail(void *val) {
    fprintf(stderr, "FATAL: uncaught NLR %p\n", val);
    exit(1);
}

void NORETURN __fatal_error(const char *msg) {
    fprintf(stderr, "FATAL: %s\n", msg);
    exit(1);
}

static mp_obj_t time_time_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return mp_obj_new_int_from_ull((unsigned long long)now.tv_sec * 1000000000ULL + now.tv_nsec);
}
static MP_DEFINE_CONST_FUN_OBJ_0(time_time_ns_obj, time_time_ns);

static const mp_rom_map_elem_t time_globals_table[] = {
    { MP_ROM_QSTR(MP_QSTR___name__), MP_ROM_QSTR(MP_QSTR_time) },
    { MP_ROM_QSTR(MP_QSTR_time_ns), MP_ROM_PTR(&time_time_ns_obj) },
};
static MP_DEFINE_CONST_DICT(time_globals, time_globals_table);

const mp_obj_module_t time_module = {
    .base = { &mp_type_module },
    .globals = (mp_obj_dict_t *)&time_globals,
};
MP_REGISTER_MODULE(MP_QSTR_time, time_module);

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "-c") == 0 && argc < 3)) {
        fprintf(stderr, "usage: micropython FILE | -c CODE\n");
        return 2;
    }
    mp_stack_ctrl_init();
    mp_stack_set_limit(256 * 1024);
    gc_init(heap, heap + sizeof(heap));
    mp_init();
    const char *path = getenv("MICROPYPATH");
    if (path != NULL && *path != '\0') {
        mp_obj_list_append(mp_sys_path, mp_obj_new_str(path, strlen(path)));
    }
    int status = 0;
    nlr_buf_t nlr;
    if (nlr_push(&nlr) == 0) {
        mp_lexer_t *lex;
        if (strcmp(argv[1], "-c") == 0) {
            lex = mp_lexer_new_from_str_len(MP_QSTR__lt_stdin_gt_, argv[2], strlen(argv[2]), 0);
        } else {
            lex = mp_lexer_new_from_file(qstr_from_str(argv[1]));
        }
        qstr source = lex->source_name;
        mp_parse_tree_t tree = mp_parse(lex, MP_PARSE_FILE_INPUT);
        mp_obj_t module = mp_compile(&tree, source, false);
        mp_call_function_0(module);
        nlr_pop();
    } else {
        mp_obj_print_exception(&mp_plat_print, MP_OBJ_FROM_PTR(nlr.ret_val));
        status = 1;
    }
    fflush(stdout);
    mp_deinit();
    return status;
}
