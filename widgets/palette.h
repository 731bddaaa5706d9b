#pragma once
// The palette: catalog entries grouped by kind, searchable; dragging one onto the canvas
// carries "kind:id" in the kCatalogMime type.

#include "model/catalog.h"

#include <QWidget>

class QLineEdit;
class QTreeWidget;

namespace cl::ui {

class Palette : public QWidget {
    Q_OBJECT
public:
    explicit Palette(const model::Catalog& catalog, QWidget* parent = nullptr);
    [[nodiscard]] QTreeWidget* tree() const { return tree_; }

signals:
    /// The user picked a link type: new connections drawn on the canvas use it.
    void linkTypeChosen(const QString& linkId);

private:
    void filter(const QString& text);
    QLineEdit* search_;
    QTreeWidget* tree_;
};

} // namespace cl::ui
