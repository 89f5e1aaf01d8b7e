#pragma once
#ifndef TILE
#error "TILE comes from the build (compile_commands.json)"
#endif
#define TILE_DIM TILE
