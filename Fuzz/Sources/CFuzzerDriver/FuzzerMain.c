#include "CFuzzerDriver.h"

// SwiftPM links an executable with main pointing at `<target>_main`; this is
// that symbol for quarry-fuzz, handing the process to libFuzzer, which calls
// the Swift LLVMFuzzerTestOneInput for each input.
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int quarry_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
