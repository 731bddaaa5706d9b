#pragma once
// Greedy word wrap to a width in pixels, for text the widgets draw themselves (card verdicts,
// the canvas's link-load banner, the Memory chart's bar names).

#include <algorithm>

#include <QFontMetrics>
#include <QRegularExpression>
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

/// `text` without its longest parenthetical aside (" (...)" with no parentheses inside); false
/// when it has none.
inline bool dropLongestAside(QString& text) {
    static const QRegularExpression aside(QStringLiteral(" \\([^()\n]*\\)"));
    qsizetype at = -1, len = 0;
    for (auto it = aside.globalMatch(text); it.hasNext();) {
        const auto m = it.next();
        if (m.capturedLength() > len) {
            at = m.capturedStart();
            len = m.capturedLength();
        }
    }
    if (at < 0)
        return false;
    text.remove(at, len);
    return true;
}

/// What a box of `room` lines, `width` pixels wide, shows of `text` (paragraphs at newlines):
/// the text whole where it fits; else the text without its parenthetical asides, the longest
/// first, as soon as what is left fits (a refusal keeps what to do: "Expert parallel: EP = 3 does
/// not divide TP = 8: EP may be 1, 2, 4, 8 here, or leave Engine default", where the card had cut
/// "… EP …" after the aside; helper-46); else its first `room` lines, the last ending in " …".
/// The tooltip and the charts have the text whole.
inline QStringList fitLines(const QString& text, const QFontMetrics& fm, int width, int room) {
    room = std::max(1, room);
    const auto wrapAll = [&](const QString& t) {
        QStringList out;
        for (const QString& para : t.split(QLatin1Char('\n')))
            out << wrapWords(para, fm, width);
        return out;
    };
    QStringList lines = wrapAll(text);
    if (lines.size() <= room)
        return lines;
    for (QString shorter = text; dropLongestAside(shorter);)
        if (const QStringList fit = wrapAll(shorter); fit.size() <= room)
            return fit;
    lines = lines.mid(0, room);
    lines.last() = fm.elidedText(lines.last() + QStringLiteral(" \u2026"), Qt::ElideRight, width);
    return lines;
}

/// One line of `text` in `width` pixels: whole, else without its asides (longest first: "Qwen3
/// 235B-A22B" for "Qwen3 235B-A22B (MoE)", where the field read "Qwen3 235B-A22B (…";
/// helper-46), else cut with "…".
inline QString fitText(const QString& text, const QFontMetrics& fm, int width) {
    if (fm.horizontalAdvance(text) <= width)
        return text;
    for (QString shorter = text; dropLongestAside(shorter);)
        if (fm.horizontalAdvance(shorter) <= width)
            return shorter;
    return fm.elidedText(text, Qt::ElideRight, width);
}

} // namespace cl::ui
