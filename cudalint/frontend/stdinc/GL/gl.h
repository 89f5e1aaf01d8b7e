#pragma once
#pragma clang system_header
#include <__cudalint/stub.h>
typedef unsigned int GLenum; typedef unsigned char GLboolean; typedef unsigned int GLbitfield; typedef void GLvoid;
typedef signed char GLbyte; typedef short GLshort; typedef int GLint; typedef int GLsizei; typedef unsigned char GLubyte;
typedef unsigned short GLushort; typedef unsigned int GLuint; typedef float GLfloat; typedef float GLclampf;
typedef double GLdouble; typedef double GLclampd; typedef char GLchar; typedef long GLsizeiptr; typedef long GLintptr;
#define GL_FALSE 0
#define GL_TRUE 1
#define GL_TEXTURE_2D 0x0DE1
#define GL_RGBA 0x1908
#define GL_RGB 0x1907
#define GL_UNSIGNED_BYTE 0x1401
#define GL_FLOAT 0x1406
#define GL_COLOR_BUFFER_BIT 0x00004000
#define GL_DEPTH_BUFFER_BIT 0x00000100
#define GL_ARRAY_BUFFER 0x8892
#define GL_PIXEL_UNPACK_BUFFER 0x88EC
#define GL_PIXEL_UNPACK_BUFFER_ARB 0x88EC
#define GL_DYNAMIC_DRAW 0x88E8
#define GL_STREAM_DRAW 0x88E0
#define GL_QUADS 0x0007
#define GL_POINTS 0x0000
#define GL_LINES 0x0001
#define GL_TRIANGLES 0x0004
#define GL_PROJECTION 0x1701
#define GL_MODELVIEW 0x1700
#define GL_TEXTURE_MIN_FILTER 0x2801
#define GL_TEXTURE_MAG_FILTER 0x2800
#define GL_NEAREST 0x2600
#define GL_LINEAR 0x2601
#define GL_DEPTH_TEST 0x0B71
#define GL_VERTEX_ARRAY 0x8074
#define GL_NO_ERROR 0
#define GL_INVALID_ENUM 0x0500
#define GL_INVALID_VALUE 0x0501
#define GL_INVALID_OPERATION 0x0502
#define GL_STACK_OVERFLOW 0x0503
#define GL_STACK_UNDERFLOW 0x0504
#define GL_OUT_OF_MEMORY 0x0505
#define GL_VENDOR 0x1F00
#define GL_RENDERER 0x1F01
#define GL_VERSION 0x1F02
#define GL_EXTENSIONS 0x1F03
#define GL_VERSION_1_1 1
#define GL_VERSION_1_2 1
#define GL_VERSION_1_3 1
#define _CL_G(name) _CL_STUB_FN(void, name)
_CL_G(glClear) _CL_G(glClearColor) _CL_G(glViewport) _CL_G(glMatrixMode) _CL_G(glLoadIdentity) _CL_G(glOrtho)
_CL_G(glBegin) _CL_G(glEnd) _CL_G(glVertex2f) _CL_G(glVertex3f) _CL_G(glTexCoord2f) _CL_G(glColor3f) _CL_G(glColor4f)
_CL_G(glEnable) _CL_G(glDisable) _CL_G(glBindTexture) _CL_G(glTexImage2D) _CL_G(glTexSubImage2D) _CL_G(glTexParameteri)
_CL_G(glGenTextures) _CL_G(glDeleteTextures) _CL_G(glDrawPixels) _CL_G(glRasterPos2i) _CL_G(glFinish) _CL_G(glFlush)
_CL_G(glPointSize) _CL_G(glDrawArrays) _CL_G(glEnableClientState) _CL_G(glDisableClientState) _CL_G(glVertexPointer)
_CL_G(glColorPointer) _CL_G(glRotatef) _CL_G(glTranslatef) _CL_G(glScalef) _CL_G(glPushMatrix) _CL_G(glPopMatrix)
_CL_G(glBlendFunc) _CL_G(glPixelStorei) _CL_G(glReadPixels) _CL_G(glLineWidth)
#undef _CL_G
_CL_STUB_FN(GLenum, glGetError)
_CL_STUB_FN(const GLubyte*, glGetString)
/* the buffer-object functions (OpenGL 1.5) are not in gl.h: <GL/glew.h> declares
   them, <GL/glext.h> with GL_GLEXT_PROTOTYPES, or the program loads them itself
   (cuda-samples' helper_gl.h, whose own glBindBuffer would be ambiguous) */
