#pragma once
#pragma clang system_header
#include <GL/gl.h>
#include <GL/glext.h>
#define GLX_EXTENSION_NAME "GLX"
#define GLX_VERSION_1_4 1
typedef struct _XDisplay Display;
typedef unsigned long XID;
typedef XID GLXDrawable;
typedef XID GLXPixmap;
typedef XID GLXWindow;
typedef struct __GLXcontextRec* GLXContext;
typedef struct __GLXFBConfigRec* GLXFBConfig;
typedef void (*__GLXextFuncPtr)(void);
_CL_BEGIN_C
__GLXextFuncPtr glXGetProcAddress(const GLubyte*);
__GLXextFuncPtr glXGetProcAddressARB(const GLubyte*);
GLXContext glXGetCurrentContext(void);
Display* glXGetCurrentDisplay(void);
GLXDrawable glXGetCurrentDrawable(void);
int glXMakeCurrent(Display*, GLXDrawable, GLXContext);
void glXSwapBuffers(Display*, GLXDrawable);
_CL_END_C
