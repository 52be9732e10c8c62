// The hot path's MicroPython: no hardware, no interrupt character.
static inline void mp_hal_set_interrupt_char(char c) {
    (void)c;
}

// No pins: the core's generic "virtual pin" API (extmod/virtpin.h) is not in the sdist.
#define mp_hal_pin_obj_t void *
