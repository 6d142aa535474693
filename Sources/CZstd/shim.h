// zstd and its dictionary builder (Debian's libzstd-dev), for the record store. The trainer with fixed
// parameters (`ZDICT_trainFromBuffer_fastCover`) is declared in zdict.h's static-linking section; the
// shared library exports it.
#define ZDICT_STATIC_LINKING_ONLY
#include <zstd.h>
#include <zdict.h>
