// The design loader: any bytes in, a design or errors with paths out -- never a crash.
#include "model/catalog.h"
#include "model/design.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const cl::model::Catalog catalog = cl::model::Catalog::bundled().value();
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    auto d = cl::model::design_from_json(text, "fuzz", &catalog);
    if (d.ok()) // a loaded design must save and load back
        (void)cl::model::design_from_json(cl::model::design_to_json(*d), "again", &catalog);
    return 0;
}
