package provider

import "strings"

// blindModels are name prefixes of models known to take no images: the
// service refuses an image part (DeepSeek's API takes text only).
var blindModels = []string{"deepseek"}

// TakesImages reports whether the model cfg names takes images: the
// user's word first (Config.Vision, a preset's vision), then what is known
// of the model's name; a model nothing is known of is sent the image (its
// server answers if it cannot read it).
func TakesImages(cfg Config) bool {
	if cfg.Vision != nil {
		return *cfg.Vision
	}
	name := strings.ToLower(cfg.Model)
	if i := strings.LastIndex(name, "/"); i >= 0 {
		name = name[i+1:] // openrouter's deepseek/deepseek-chat
	}
	for _, p := range blindModels {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}
