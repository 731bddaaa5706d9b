#pragma once
// The hardware catalog: GPUs, link types, NICs, switches, systems, cloud offers and the model
// zoo. Bundled data files (resources/catalog/*.json) carry a source and as-of date per entry;
// a user catalog file may add entries or override bundled ones by id (marked as the user's).

#include "model/architecture.h"
#include "model/choices.h"
#include "model/error.h"

#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace cl::model {

enum class Dtype { fp64, fp32, tf32, bf16, fp16, fp8, int8, fp4 };
inline constexpr std::size_t kDtypeCount = 8;
std::string_view dtype_name(Dtype d);
std::optional<Dtype> dtype_from_name(std::string_view name);
/// Bytes one element of the type takes in memory (TF32 is stored in 4; FP4 in half a byte,
/// block scales not counted).
double dtype_bytes(Dtype d);
/// The tensor-core type a training precision multiplies in.
constexpr Dtype to_dtype(TrainingDtype t) {
    switch (t) {
    case TrainingDtype::bf16:
        return Dtype::bf16;
    case TrainingDtype::fp16:
        return Dtype::fp16;
    case TrainingDtype::fp8:
        return Dtype::fp8;
    case TrainingDtype::fp32:
        return Dtype::fp32;
    }
    return Dtype::bf16;
}

/// A serving engine's tensor-parallel all-reduce of 16-bit activations, timed inside the engine
/// on this GPU's reference server (in a CUDA graph, as decode steps run): the engine's own
/// kernels (one-shot / two-shot custom all-reduce for small messages, NCCL for large) rather
/// than NCCL's model (docs/catalog.md, "Measured all-reduce").
struct EngineAllReduce {
    ServingEngine engine = ServingEngine::trtllm;
    std::string version; ///< the engine release it was timed with
    int gpus = 0;        ///< GPUs in the all-reduce
    /// (message bytes, seconds), bytes strictly ascending.
    std::vector<std::pair<double, double>> points;
};

struct GpuSpec {
    std::string id, name, vendor, arch, form_factor, memory_type;
    double memory_bytes = 0; ///< vendor capacity, bytes (1 GB = 1e9)
    /// What CUDA (or HIP) reports as the device's total -- torch.cuda.mem_get_info, the total
    /// every engine sizes its KV cache and every framework its allocations against; 0 = not
    /// measured (the vendor capacity stands in). NVIDIA's "80 GB" H100 is 79.2 GiB = 85.0 GB.
    double usable_memory_bytes = 0;
    std::string usable_memory_source;
    /// The memory frameworks can allocate: usable_memory_bytes when measured, else the label.
    double framework_memory_bytes() const {
        return usable_memory_bytes > 0 ? usable_memory_bytes : memory_bytes;
    }
    double memory_bandwidth_Bps = 0;               ///< HBM bandwidth, bytes/s
    std::array<double, kDtypeCount> dense_flops{}; ///< dense peak FLOP/s per dtype; 0 = none
    /// Best measured GEMM throughput per dtype (mamf-finder); 0 = not measured.
    std::array<double, kDtypeCount> achieved_matmul_flops{};
    /// Fraction of the bf16 peak FlashAttention reaches in training (0 = unknown).
    double attention_efficiency = 0;
    std::string achieved_matmul_source, attention_efficiency_source; ///< where those come from
    double tdp_w = 0;
    std::string scaleup_link;                ///< link id (nvlink4, xgmi-mi300, ...) or empty
    double scaleup_bandwidth_unidir_Bps = 0; ///< per GPU, one direction, all links
    std::string pcie_link;
    double l2_bytes = 0;
    int sm_count = 0;
    std::string reference_system; ///< system id used for CLI defaults
    /// "" for data-centre accelerators; "workstation_gpu", "edge_soc", ... for the devices
    /// people size workstations and edge boxes with (the palette groups them apart).
    std::string device_class;
    bool unified_memory = false; ///< memory shared with the CPU (Jetson, Apple silicon)
    /// The host CPU is NVIDIA Grace (GB200 superchips): each Python/PyTorch operation costs its
    /// host about 2.7x an x86 host's (TransformerEngine issue #2053), which host-bound serving
    /// steps pay (InferenceAssumptions::trtllm_host_s_per_sequence_grace).
    bool grace_host = false;
    double host_link_Bps = 0; ///< host link one way (PCIe) for a discrete card; 0 unknown
    int sockets = 0;          ///< CPU servers: sockets (0 = not a CPU server)
    int numa_nodes = 1;       ///< NUMA nodes the memory is split over (CPU servers)
    /// The share of the nominal memory bandwidth one decode stream's kernels reach on this
    /// device relative to a one-die device (a two-die package whose reads cross the die-to-die
    /// link: the M3 Ultra); 1 for every other device. Serving only (docs/validation.md).
    double decode_memory_factor = 1;
    std::string decode_memory_factor_source;
    /// The share of the nominal memory bandwidth native FP4 (NVFP4) GEMMs stream their weights
    /// at on this GPU's kernels, where measured; 0 = InferenceAssumptions::
    /// fp4_weight_stream_efficiency (B200's CUTLASS kernels). Serving only.
    double fp4_weight_stream_efficiency = 0;
    std::string fp4_weight_stream_source;
    /// Each serving engine's measured TP all-reduce on the reference server (its NVLink /
    /// NVSwitch, or PCIe for a card without NVLink); empty = the collective model.
    std::vector<EngineAllReduce> engine_allreduce;
    std::string engine_allreduce_source;
    int memory_channels = 0; ///< DDR channels, all sockets (0 = not stated)
    int gpus_per_node = 8;   ///< CLI.md default --gpus-per-node
    int scaleup_domain = 1;  ///< CLI.md default --scaleup-domain
    std::string default_scaleout_link;
    int default_nics_per_node = 0;
    double price_usd = 0; ///< street price estimate; 0 = unknown
    Provenance provenance;
    std::string raw_json;

    [[nodiscard]] double peak(Dtype d) const { return dense_flops[static_cast<std::size_t>(d)]; }
    /// Achievable fraction of the dense peak for large GEMMs: measured when the catalog has
    /// it, else 0.80 (median of the NVIDIA rows of the mamf-finder table; docs/training.md).
    [[nodiscard]] double gemm_efficiency(Dtype d) const {
        const double a = achieved_matmul_flops[static_cast<std::size_t>(d)];
        const double p = peak(d);
        return (a > 0 && p > 0) ? std::min(1.0, a / p) : 0.80;
    }
};

/// The engine's measured all-reduce over `gpus` of these GPUs; nullptr when the catalog has
/// none for that engine and GPU count.
const EngineAllReduce* engine_allreduce(const GpuSpec& g, ServingEngine e, int gpus);
/// Its time for `bytes`: log-log between the measured sizes, the smallest size's time below
/// them, the largest size's bandwidth above them.
double engine_allreduce_seconds(const EngineAllReduce& a, double bytes);

enum class LinkClass { scaleup, pcie, scaleout };

struct LinkSpec {
    std::string id, name;
    NetProtocol protocol = NetProtocol::none;
    LinkClass cls = LinkClass::scaleout;
    double bandwidth_unidir_Bps = 0; ///< one link, one direction
    double per_gpu_unidir_Bps = 0;   ///< scale-up links: all links of one GPU
    double port_rate_bps = 0;        ///< scale-out: signalling rate, bits/s
    double latency_s = 0;            ///< 0 = not published
    double cable_price_usd = 0;      ///< scale-out: one cable with both optics (0 = unknown)
    Provenance provenance;
    std::string raw_json;
};

struct NicSpec {
    std::string id, name, protocols;
    double port_rate_bps = 0;
    Provenance provenance;
    std::string raw_json;
};

enum class SwitchClass { nvswitch, infiniband, ethernet };

struct SwitchSpec {
    std::string id, name, link;
    SwitchClass cls = SwitchClass::infiniband;
    int ports = 0;
    double port_rate_bps = 0;
    double price_usd = 0; ///< 0 = unknown (NVSwitch chips are priced inside their system)
    Provenance provenance;
    std::string raw_json;
};

struct SystemSpec {
    std::string id, name, gpu, nvswitch, scaleup_link, nic, scaleout_link;
    int gpus = 0, nvswitch_count = 0, nics = 0, rack_units = 0;
    double power_w = 0, price_usd = 0;
    Provenance provenance;
    std::string raw_json;
};

struct CloudOffer {
    std::string id, provider, instance, gpu, region, price_as_of;
    int gpus = 0;
    double on_demand_usd_per_hour = 0, commit_1y_usd_per_hour = 0, commit_3y_usd_per_hour = 0,
           spot_usd_per_hour = 0;
    Provenance provenance;
    std::string raw_json;
};

/// Catalog kinds, in the order `catalog` lists them.
enum class CatalogKind { gpus, links, nics, switches, systems, cloud, models };
std::string_view catalog_kind_name(CatalogKind k);
std::optional<CatalogKind> catalog_kind_from_name(std::string_view name);

class Catalog {
public:
    /// The bundled catalog (compiled into the binary from resources/catalog).
    static Result<Catalog> bundled();

    /// Adds (or, for an existing id, replaces) entries from one catalog JSON text. The text is
    /// an object with any of the arrays "gpus", "links", "nics", "switches", "systems", "cloud",
    /// "models". user=true marks the entries as the user's. All-or-nothing: on error the
    /// catalog is unchanged.
    std::vector<Error> merge(std::string_view text, std::string_view origin, bool user);

    [[nodiscard]] const GpuSpec* gpu(std::string_view id) const;
    [[nodiscard]] const LinkSpec* link(std::string_view id) const;
    [[nodiscard]] const NicSpec* nic(std::string_view id) const;
    [[nodiscard]] const SwitchSpec* switch_spec(std::string_view id) const;
    [[nodiscard]] const SystemSpec* system(std::string_view id) const;
    [[nodiscard]] const CloudOffer* cloud(std::string_view id) const;
    [[nodiscard]] const ModelArch* model(std::string_view id) const;

    /// A catalog entry's name for a person, short enough for a canvas label: its name up to
    /// the first " (" ("H100 SXM5 80GB", "InfiniBand NDR 4x", "Instinct MI300X"); the id when
    /// no GPU, link, NIC, switch or system has it (a user's unknown type stays visible as typed).
    [[nodiscard]] std::string short_name(std::string_view id) const;

    [[nodiscard]] const std::vector<GpuSpec>& gpus() const { return gpus_; }
    [[nodiscard]] const std::vector<LinkSpec>& links() const { return links_; }
    [[nodiscard]] const std::vector<NicSpec>& nics() const { return nics_; }
    [[nodiscard]] const std::vector<SwitchSpec>& switches() const { return switches_; }
    [[nodiscard]] const std::vector<SystemSpec>& systems() const { return systems_; }
    [[nodiscard]] const std::vector<CloudOffer>& cloud_offers() const { return cloud_; }
    /// Every cloud price times `factor` (what-if analyses: sensitivity to the cloud price).
    void scale_cloud_prices(double factor) {
        for (auto& o : cloud_) {
            o.on_demand_usd_per_hour *= factor;
            o.commit_1y_usd_per_hour *= factor;
            o.commit_3y_usd_per_hour *= factor;
            o.spot_usd_per_hour *= factor;
        }
    }
    [[nodiscard]] const std::vector<ModelArch>& models() const { return models_; }

    /// Ids of one kind, in catalog order (palette, completion, error messages).
    [[nodiscard]] std::vector<std::string> ids(CatalogKind k) const;
    /// "did you mean" helper: the known id closest to `id` in edit distance, or empty.
    [[nodiscard]] std::string closest_id(CatalogKind k, std::string_view id) const;

private:
    static void return_item(Catalog& c, GpuSpec g);
    static void return_item(Catalog& c, LinkSpec l);
    static void return_item(Catalog& c, NicSpec n);
    static void return_item(Catalog& c, SwitchSpec s);
    static void return_item(Catalog& c, SystemSpec s);
    static void return_item(Catalog& c, CloudOffer o);
    static void return_item(Catalog& c, ModelArch m);

    std::vector<GpuSpec> gpus_;
    std::vector<LinkSpec> links_;
    std::vector<NicSpec> nics_;
    std::vector<SwitchSpec> switches_;
    std::vector<SystemSpec> systems_;
    std::vector<CloudOffer> cloud_;
    std::vector<ModelArch> models_;
};

/// Where the user's own catalog file lives: $CLUSTERLENS_CATALOG if set, else
/// $XDG_CONFIG_HOME/clusterlens/catalog.json, else ~/.config/clusterlens/catalog.json.
std::string user_catalog_path();

/// Reads a whole text file (at most max_bytes); errors name the file.
Result<std::string> read_text_file(const std::string& path,
                                   std::size_t max_bytes = 64u * 1024u * 1024u);

} // namespace cl::model
