// Package raster5d is a stochastic 5D rasterizer.
package raster5d
