package scene

// ShaderInfo describes a material shader of the library as scenes see it: the
// names of its parameters (.param) and samplers (.sampler), in declaration
// order.
type ShaderInfo struct {
	Name     string
	Params   []string
	Samplers []string
	// GeometryShader names the material's geometry shader ("" for none).
	GeometryShader string
}

// Shaders returns the material shaders of functional/shader/library and their
// interfaces. This table is the one place that mirrors the library (its
// Names() and declarations); scene files are validated against it.
func Shaders() []ShaderInfo {
	return []ShaderInfo{
		{Name: "unlit", Params: []string{"color"}},
		{Name: "gouraud", Params: []string{"diffuse", "specular"}},
		{Name: "blinnphong", Params: []string{"diffuse", "specular"}},
		{Name: "textured", Params: []string{"tint"}, Samplers: []string{"albedo"}},
		{Name: "normalmap", Params: []string{"specular"}, Samplers: []string{"albedo", "normal"}},
		{Name: "alphatest", Params: []string{"tint", "cutoff"}, Samplers: []string{"albedo"}},
		{Name: "depthwrite", Params: []string{"color", "amplitude", "frequency"}},
		{Name: "long", Params: []string{"color_a", "color_b", "specular"}},
		{Name: "envmap", Params: []string{"tint"}, Samplers: []string{"env"}},
		{Name: "layered", Params: []string{"tint", "layer"}, Samplers: []string{"layers"}},
		{Name: "volume", Params: []string{"tint", "scale", "offset"}, Samplers: []string{"volume"}},
		{Name: "bowlingpin", Params: []string{"slide0_s", "slide0_t", "slide0_q", "slide0_pos", "slide1_s", "slide1_t",
			"slide1_q", "slide1_pos", "slide2_s", "slide2_t", "slide2_q", "slide2_pos", "slide3_s", "slide3_t", "slide3_q",
			"slide3_pos", "diffuse", "specular"},
			Samplers: []string{"pinbase", "bruns", "circle", "coated", "marks", "slide0", "slide1", "slide2", "slide3"}},
		{Name: "bumppin", Params: []string{"diffuse", "specular"}, Samplers: []string{"pinbase", "bruns", "marks", "bump"}},
		{Name: "grass", Params: []string{"ground", "base", "tip", "blade", "wind", "width"}, GeometryShader: "grass"},
		{Name: "grass_instanced", Params: []string{"ground", "base", "tip", "blade", "wind", "width"}, GeometryShader: "grass_instanced"},
		{Name: "silhouette", Params: []string{"width", "bias", "color"}, GeometryShader: "silhouette"},
		{Name: "particle_step", Params: []string{"dt", "gravity", "lifetime", "spray", "color"}, GeometryShader: "particle_step"},
		{Name: "particle_sprite", Params: []string{"size", "hot", "cold", "lifetime"}, GeometryShader: "sprite"},
		{Name: "wood", Params: []string{"ringscale", "grainscale", "specular", "planks"},
			Samplers: []string{"noise", "turbulence", "grain", "palette", "planks", "varnish"}},
	}
}

// ShaderNames returns the names of Shaders(), in table order.
func ShaderNames() []string {
	var names []string
	for _, s := range Shaders() {
		names = append(names, s.Name)
	}
	return names
}

// LookupShader returns the interface of the shader called name.
func LookupShader(name string) (ShaderInfo, bool) {
	for _, s := range Shaders() {
		if s.Name == name {
			return s, true
		}
	}
	return ShaderInfo{}, false
}

// GeometryShader returns the name of the material's geometry shader, or "".
func (m *Material) GeometryShader() string {
	info, _ := LookupShader(m.Shader)
	return info.GeometryShader
}
