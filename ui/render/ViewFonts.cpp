#include "render/ViewFonts.h"

#include <vtkTextProperty.h>

#include <filesystem>
#include <initializer_list>

namespace clab {

namespace {

std::string firstExisting(std::initializer_list<const char*> candidates)
{
    for (const char* path : candidates) {
        std::error_code ec;
        if (std::filesystem::is_regular_file(path, ec)) {
            return path;
        }
    }
    return {};
}

} // namespace

const std::string& ViewFonts::sansPath()
{
    static const std::string path = firstExisting(
        {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
         "/usr/share/fonts/dejavu/DejaVuSans.ttf",
         "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf",
         "/usr/share/fonts/truetype/freefont/FreeSans.ttf", "/Library/Fonts/Arial Unicode.ttf",
         "C:/Windows/Fonts/seguisym.ttf"});
    return path;
}

const std::string& ViewFonts::monoPath()
{
    static const std::string path = firstExisting(
        {"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
         "/usr/share/fonts/TTF/DejaVuSansMono.ttf", "/usr/share/fonts/dejavu/DejaVuSansMono.ttf",
         "/usr/share/fonts/truetype/freefont/FreeMono.ttf"});
    return path;
}

void ViewFonts::apply(vtkTextProperty* property, bool monospace)
{
    const std::string& path = monospace && !monoPath().empty() ? monoPath() : sansPath();
    if (path.empty()) {
        property->SetFontFamilyToArial();
        return;
    }
    property->SetFontFamily(VTK_FONT_FILE);
    property->SetFontFile(path.c_str());
}

} // namespace clab
