#include "document/atomicfile.h"

#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>

namespace cl::doc {

QString lastOsError() {
    return QString::fromLocal8Bit(std::strerror(errno));
}

QString writeFileAtomically(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    // Unbuffered: every write reaches the system at once, so its failure is seen here.
    if (!f.open(QIODevice::WriteOnly | QIODevice::Unbuffered))
        return QObject::tr("Cannot write %1: %2").arg(path, f.errorString());
    qint64 done = 0;
    while (done < bytes.size()) {
        errno = 0;
        const qint64 n = f.write(bytes.constData() + done, bytes.size() - done);
        if (n <= 0) {
            const QString why = errno != 0 ? lastOsError() : f.errorString();
            f.cancelWriting();
            return QObject::tr("Cannot write %1: %2").arg(path, why);
        }
        done += n;
    }
    errno = 0;
    if (!f.flush() || f.error() != QFileDevice::NoError) {
        const QString why = errno != 0 ? lastOsError() : f.errorString();
        f.cancelWriting();
        return QObject::tr("Cannot write %1: %2").arg(path, why);
    }
    if (!f.commit())
        return QObject::tr("Cannot save %1: %2").arg(path, f.errorString());
    // Belt and braces: what is on disk now must be what we wrote.
    if (QFileInfo(path).size() != bytes.size())
        return QObject::tr("Cannot save %1: the file on disk has %2 bytes, %3 were written")
            .arg(path)
            .arg(QFileInfo(path).size())
            .arg(bytes.size());
    return {};
}

} // namespace cl::doc
