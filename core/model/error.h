#pragma once
// Errors at clear boundaries (STYLE.md practice 9): readers return a value or a list of
// errors, each naming where (file, JSON path) and what was expected versus found.

#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace cl::model {

struct Error {
    std::string where; ///< JSON path ("links[3].to"), flag ("--gpus") or file name
    std::string what;  ///< what was expected and what was found

    /// "where: what", each part at most ~1,000 bytes (a value echoed from a hostile file can be
    /// megabytes long; units::excerpt keeps its start and says how long it was).
    [[nodiscard]] std::string message() const;
};

/// Joins errors one per line, at most `limit` of them, with a count of the rest.
std::string join_errors(const std::vector<Error>& errors, std::size_t limit = 20);

/// A value or the errors that prevented it.
template <class T> class Result {
public:
    Result(T value) : v_(std::move(value)) {}                 // NOLINT: implicit by design
    Result(Error e) : v_(std::vector<Error>{std::move(e)}) {} // NOLINT
    Result(std::vector<Error> es) : v_(std::move(es)) {}      // NOLINT

    [[nodiscard]] bool ok() const { return std::holds_alternative<T>(v_); }
    explicit operator bool() const { return ok(); }
    [[nodiscard]] const T& value() const& { return std::get<T>(v_); }
    [[nodiscard]] T& value() & { return std::get<T>(v_); }
    [[nodiscard]] T&& value() && { return std::get<T>(std::move(v_)); }
    const T* operator->() const { return &std::get<T>(v_); }
    T* operator->() { return &std::get<T>(v_); }
    const T& operator*() const& { return std::get<T>(v_); }
    [[nodiscard]] const std::vector<Error>& errors() const {
        static const std::vector<Error> none;
        return ok() ? none : std::get<std::vector<Error>>(v_);
    }
    [[nodiscard]] std::string error_text() const { return join_errors(errors()); }

private:
    std::variant<T, std::vector<Error>> v_;
};

} // namespace cl::model
