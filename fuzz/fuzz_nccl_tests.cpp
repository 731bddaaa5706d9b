// The nccl-tests output parser (and the calibration fit on whatever it accepts).
#include "model/collective.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    (void)cl::model::parse_nccl_tests(text);
    return 0;
}
