// A hint to start loading a cache line, which Swift has no spelling for: a plain load would stall
// until it arrives, a prefetch does not.
static inline void quarry_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }
