#pragma once

#include <stdexcept>
#include <string>

namespace clab {

/// \brief A format-2 system that cannot be built: where (a key and a place in its expression)
/// and why.
///
/// `key` is the JSON path of the offending entry, e.g. "system.constraints[1].holonomic";
/// `position` is the 1-based character column in that expression (0 when the problem is not at
/// one place). what() reads "KEY: REASON" or "KEY: column N: REASON".
class SystemError : public std::runtime_error {
public:
    SystemError(std::string key, std::string reason, int position = 0)
        : std::runtime_error(compose(key, reason, position)), key_(std::move(key)),
          reason_(std::move(reason)), position_(position)
    {
    }

    const std::string& key() const { return key_; }
    const std::string& reason() const { return reason_; }
    int position() const { return position_; }
    /// "column N: REASON" when there is a position, else REASON.
    std::string located() const
    {
        return position_ > 0 ? "column " + std::to_string(position_) + ": " + reason_ : reason_;
    }

private:
    static std::string compose(const std::string& key, const std::string& reason, int position)
    {
        const std::string where = position > 0 ? "column " + std::to_string(position) + ": " : "";
        return key.empty() ? where + reason : key + ": " + where + reason;
    }

    std::string key_;
    std::string reason_;
    int position_;
};

} // namespace clab
