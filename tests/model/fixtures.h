#pragma once
// Shared by the core/model test suites: the bundled catalog and bundled presets, loaded once.

#include "model/bundled.h"
#include "model/catalog.h"
#include "model/design.h"
#include "model/topology.h"

#include <stdexcept>
#include <string>

namespace cl::test {

/// The bundled catalog; throws (failing the test) if it does not load.
inline const model::Catalog& bundled_catalog() {
    static const model::Catalog c = [] {
        auto r = model::Catalog::bundled();
        if (!r)
            throw std::runtime_error(r.error_text());
        return std::move(r).value();
    }();
    return c;
}

/// A bundled preset, validated against the bundled catalog.
inline model::Design preset(const std::string& id) {
    auto d = model::design_from_json(model::bundled_file("presets/" + id + ".json"), id,
                                     &bundled_catalog());
    if (!d)
        throw std::runtime_error(id + ": " + d.error_text());
    return std::move(d).value();
}

/// The fabric of one system (a DGX/HGX node, an NVL72 rack) and nothing else.
inline model::Topology single_system(const char* system) {
    model::Design d;
    model::Device dev;
    dev.id = "node";
    dev.kind = model::DeviceKind::system;
    dev.catalog = system;
    d.devices.push_back(dev);
    return model::analyze_topology(d, bundled_catalog());
}

/// A design of one server holding `n` PCIe cards of `gpu` (no NVLink, no NICs), as drawn.
inline model::Design pcie_box(const std::string& gpu, int n) {
    model::Design d;
    model::Device server;
    server.id = "server";
    server.kind = model::DeviceKind::server;
    server.gpu_slots = n;
    model::Device card;
    card.id = "gpu";
    card.kind = model::DeviceKind::gpu;
    card.catalog = gpu;
    card.count = n;
    card.parent = "server";
    d.devices = {server, card};
    return d;
}

} // namespace cl::test

#include "model/uncertainty.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cl::test {

/// Checks that resources/validation/held_out_<kind>.json holds exactly these held-out rows (the
/// bands of issue 19 rest on them); with CLUSTERLENS_WRITE_HELD_OUT=1 in the environment it
/// writes the file instead. Returns an empty string or what differs.
inline std::string check_held_out(const std::vector<model::HeldOutRow>& rows, const char* kind,
                                  const char* generated_by) {
    const std::string path =
        std::string(CLUSTERLENS_SOURCE_DIR) + "/resources/validation/held_out_" + kind + ".json";
    if (std::getenv("CLUSTERLENS_WRITE_HELD_OUT")) {
        std::ofstream(path) << model::held_out_to_json(rows, generated_by);
        return {};
    }
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::vector<model::HeldOutRow> file;
    try {
        file = model::parse_held_out(text.str());
    } catch (const std::exception& e) {
        return path + ": " + e.what();
    }
    const std::string again = " is stale: rerun this test with CLUSTERLENS_WRITE_HELD_OUT=1 and "
                              "commit the file (the bands of issue 19 rest on it)";
    if (file.size() != rows.size())
        return path + " has " + std::to_string(file.size()) + " rows, the validation " +
               std::to_string(rows.size()) + again;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const auto& a = file[i];
        const auto& b = rows[i];
        if (a.id != b.id || a.source != b.source || a.arch != b.arch || a.moe != b.moe ||
            a.fsdp != b.fsdp || a.pp != b.pp || a.gpus != b.gpus ||
            std::abs(a.error - b.error) > 0.0006)
            return path + ": row " + b.id + " (error " + std::to_string(b.error) + ", file " +
                   std::to_string(a.error) + ")" + again;
    }
    return {};
}

} // namespace cl::test
