#pragma once
#pragma clang system_header
#include <GL/gl.h>
#include <GL/glu.h>
#define GLUT_RGB 0
#define GLUT_RGBA 0
#define GLUT_DOUBLE 2
#define GLUT_DEPTH 16
#define GLUT_LEFT_BUTTON 0
#define GLUT_MIDDLE_BUTTON 1
#define GLUT_RIGHT_BUTTON 2
#define GLUT_DOWN 0
#define GLUT_UP 1
#define GLUT_KEY_UP 101
#define GLUT_KEY_DOWN 103
#define GLUT_KEY_LEFT 100
#define GLUT_KEY_RIGHT 102
#define GLUT_ACTION_ON_WINDOW_CLOSE 0x01F9
#define GLUT_ACTION_GLUTMAINLOOP_RETURNS 1
#define GLUT_ACTION_CONTINUE_EXECUTION 2
#define GLUT_ELAPSED_TIME 700
#define GLUT_WINDOW_WIDTH 102
#define GLUT_WINDOW_HEIGHT 103
#define _CL_G(name) _CL_STUB_FN(void, name)
_CL_G(glutInit) _CL_G(glutInitDisplayMode) _CL_G(glutInitWindowSize) _CL_G(glutInitWindowPosition)
_CL_G(glutDisplayFunc) _CL_G(glutReshapeFunc) _CL_G(glutKeyboardFunc) _CL_G(glutSpecialFunc) _CL_G(glutMouseFunc)
_CL_G(glutMotionFunc) _CL_G(glutIdleFunc) _CL_G(glutTimerFunc) _CL_G(glutCloseFunc) _CL_G(glutMainLoop)
_CL_G(glutMainLoopEvent) _CL_G(glutSwapBuffers) _CL_G(glutPostRedisplay) _CL_G(glutSetWindowTitle)
_CL_G(glutDestroyWindow) _CL_G(glutLeaveMainLoop) _CL_G(glutSetOption) _CL_G(glutReportErrors)
_CL_G(glutAddMenuEntry) _CL_G(glutAttachMenu) _CL_G(glutFullScreen) _CL_G(glutBitmapCharacter)
#undef _CL_G
_CL_STUB_FN(int, glutCreateWindow)
_CL_STUB_FN(int, glutGet)
_CL_STUB_FN(int, glutCreateMenu)
_CL_STUB_FN(int, glutGetModifiers)
extern void* GLUT_BITMAP_9_BY_15;
extern void* GLUT_BITMAP_HELVETICA_12;
