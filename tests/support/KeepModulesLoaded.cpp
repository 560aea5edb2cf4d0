// Preloaded into the GUI tests of the sanitizer build (LD_PRELOAD): dlclose() does nothing, so
// the OpenGL driver modules Mesa loads stay mapped until exit. LeakSanitizer can then tell
// their lifelong allocations apart (they are reachable from the modules' data) from real leaks,
// and leak checking stays on for the views. Built without sanitizers: xvfb-run and Xvfb load it
// too.
extern "C" int dlclose(void* handle)
{
    (void)handle;
    return 0;
}
