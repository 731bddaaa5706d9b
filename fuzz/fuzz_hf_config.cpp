// The Hugging Face config.json importer.
#include "model/architecture.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto m = cl::model::import_hf_config(text, "fuzz");
    if (m.ok())
        (void)m->total_params();
    return 0;
}
