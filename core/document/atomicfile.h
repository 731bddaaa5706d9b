#pragma once
// Every file ClusterLens writes goes through here (issue 17): the bytes go to a temporary file
// next to the target, are flushed and checked, and only then replace the target. On a full
// disk or any write error the target is left byte-identical and the error names the OS reason
// ("No space left on device"). QSaveFile alone is not enough: a write that only fails when
// its buffer is flushed was reported as success by write(), and commit() then replaced the
// file with an empty one.

#include <QByteArray>
#include <QString>

class QIODevice;

namespace cl::doc {

/// Writes `bytes` to `path` atomically. Returns an error text (empty on success).
QString writeFileAtomically(const QString& path, const QByteArray& bytes);

/// The reason of the last failed system call, as the OS words it (strerror(errno)).
QString lastOsError();

} // namespace cl::doc
