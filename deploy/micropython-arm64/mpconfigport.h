// The hot path's MicroPython (deploy/micropython-arm64): the core language, no extmod/.
#include <stdint.h>

#define MICROPY_CONFIG_ROM_LEVEL (MICROPY_CONFIG_ROM_LEVEL_CORE_FEATURES)
#define MICROPY_ENABLE_COMPILER (1)
#define MICROPY_ENABLE_GC (1)
#define MICROPY_HELPER_REPL (0)
#define MICROPY_ENABLE_EXTERNAL_IMPORT (1)
#define MICROPY_READER_POSIX (1)
#define MICROPY_LONGINT_IMPL (MICROPY_LONGINT_IMPL_MPZ)
#define MICROPY_FLOAT_IMPL (MICROPY_FLOAT_IMPL_DOUBLE)
#define MICROPY_PY_BUILTINS_FLOAT (1)
#define MICROPY_PY_FSTRINGS (1)
#define MICROPY_PY_BUILTINS_STR_OP_MODULO (1)
#define MICROPY_PY_SYS (1)
#define MICROPY_PY_SYS_PATH (1)
#define MICROPY_PY_SYS_ARGV (1)
#define MICROPY_PY_IO (0)
#define MICROPY_PY_BUILTINS_INPUT (0)
#define MICROPY_PY_OS (0)
#define MICROPY_PY_TIME (0)
#define MICROPY_VFS (0)
#define MICROPY_PY_THREAD (0)
#define MICROPY_ERROR_REPORTING (MICROPY_ERROR_REPORTING_DETAILED)
#define MICROPY_STACK_CHECK (1)
#define MICROPY_ALLOC_PATH_MAX (256)
#define MICROPY_GCREGS_SETJMP (1)

#define MICROPY_HW_BOARD_NAME "turbokiosk-hotpath"
#define MICROPY_HW_MCU_NAME "aarch64"
#define MICROPY_PY_SYS_PLATFORM "linux"

#define MP_SSIZE_MAX (0x7fffffffffffffff)
typedef intptr_t mp_int_t;
typedef uintptr_t mp_uint_t;
typedef long mp_off_t;

#define MICROPY_MPHALPORT_H "mphalport.h"
#include <alloca.h>
