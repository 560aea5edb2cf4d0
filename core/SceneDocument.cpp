#include "SceneDocument.h"

#include "SceneRegistry.h"
#include "symbolic/SymbolicModel.h"

namespace clab {

bool operator==(const SystemRef& a, const SystemRef& b)
{
    if (a.model == b.model)
        return true;
    return a.model && b.model && a.model->description() == b.model->description() &&
           a.model->definition().title == b.model->definition().title;
}

SceneDocument SceneDocument::fromSystem(std::shared_ptr<const SymbolicModel> model)
{
    SceneDocument document = fromDefinition(model->definition());
    document.scene.clear();
    document.system.model = std::move(model);
    return document;
}

const SceneDefinition* SceneDocument::definition() const
{
    return system ? &system->definition() : SceneRegistry::find(scene);
}

} // namespace clab
