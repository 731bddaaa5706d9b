#pragma once
// Large designs generated as text, as a file would hold them (issue 17 item 8), shared by the
// model and canvas benchmarks.
#include <string>

/// 100,000 devices: 96,970 DGX H100 systems on 3,030 leaves, one link each.
inline const std::string& flat_100k() {
    static const std::string text = [] {
        const int leaves = 3030, servers = 100000 - leaves;
        std::string s = R"({"format": "clusterlens-design", "version": "1.1", "devices": [)";
        for (int i = 0; i < leaves; ++i)
            s += R"({"id": "leaf)" + std::to_string(i) +
                 R"(", "kind": "switch", "catalog": "qm9700"},)";
        for (int i = 0; i < servers; ++i)
            s += std::string(i ? "," : "") + R"({"id": "s)" + std::to_string(i) +
                 R"(", "kind": "system", "catalog": "dgx-h100"})";
        s += R"(], "links": [)";
        for (int i = 0; i < servers; ++i)
            s += std::string(i ? "," : "") + R"({"id": "l)" + std::to_string(i) +
                 R"(", "from": "s)" + std::to_string(i) + R"(", "to": "leaf)" +
                 std::to_string(i % leaves) + R"(", "type": "ib-ndr"})";
        return s + "]}";
    }();
    return text;
}
/// A chain of 10,000 groups, each inside the previous one, holding one DGX H100.
inline const std::string& chain_10k() {
    static const std::string text = [] {
        std::string s = R"({"format": "clusterlens-design", "version": "1.1", "devices": [)";
        for (int i = 0; i < 10000; ++i)
            s += R"({"id": "g)" + std::to_string(i) + R"(", "kind": "group")" +
                 (i ? R"(, "parent": "g)" + std::to_string(i - 1) + "\"" : std::string()) + "},";
        return s + R"({"id": "s", "kind": "system", "catalog": "dgx-h100", "parent": "g9999"}]})";
    }();
    return text;
}
