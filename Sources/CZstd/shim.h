// zstd and its dictionary builder (Debian's libzstd-dev), for the record store.
#include <zstd.h>
#include <zdict.h>
