#pragma once
// Data compiled into the binary (generated from resources/catalog/*.json and presets/*.json by
// embed.cmake), so the CLI and the GUI work from any directory and from the .deb alike.

#include <string_view>
#include <vector>

namespace cl::model {

struct BundledFile {
    std::string_view name; ///< "resources/catalog/gpus.json", "presets/dgx-h100-su.json"
    std::string_view text;
};

/// All bundled files, sorted by name.
const std::vector<BundledFile>& bundled_files();
/// One bundled file's text, or an empty view when there is none of that name.
std::string_view bundled_file(std::string_view name);

} // namespace cl::model
