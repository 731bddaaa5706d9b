#pragma once
// Greedy word wrap to a width in pixels, for text the widgets draw themselves (card verdicts,
// the canvas's link-load banner, the Memory chart's bar names).

#include <QFontMetrics>
#include <QString>
#include <QStringList>

namespace cl::ui {

/// `text` broken at spaces into lines no wider than `width` pixels in `fm` (a single word wider
/// than that stays whole on its own line); no lines for a text without words.
inline QStringList wrapWords(const QString& text, const QFontMetrics& fm, int width) {
    QStringList lines;
    QString line;
    for (const QString& word : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString next = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && fm.horizontalAdvance(next) > width) {
            lines << line;
            line = word;
        } else {
            line = next;
        }
    }
    if (!line.isEmpty())
        lines << line;
    return lines;
}

} // namespace cl::ui
