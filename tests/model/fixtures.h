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

} // namespace cl::test
