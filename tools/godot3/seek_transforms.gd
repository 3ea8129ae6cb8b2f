# Plays graft's exported clips in real Godot 3: for each scene, seeks its AnimationPlayer's
# animation to given times and prints every CanvasItem's global transform at each time.
#
#   godot3-server --no-window --path PROJECT_DIR -s /abs/path/seek_transforms.gd --list=FILE
#
# FILE has one scene a line: a path (res://, relative to PROJECT_DIR, or absolute) followed by
# the times in seconds, separated by spaces. The scene's first AnimationPlayer plays its
# autoplay animation (else its first); `seek(t, true)` applies the tracks at once.
# Output on stdout, one JSON object a line (numbers as in print_transforms.gd):
#   {"kind":"begin","scene":...,"animation":"clip","length":L,"loop":bool}
#   {"kind":"time","t":T}   then one line per CanvasItem in pre-order:
#   {"kind":"item","path":"A/B","global":[xx,xy,yx,yy,ox,oy]}   (get_global_transform())
#   {"kind":"end","scene":...}
#   on failure: {"kind":"error","scene":...,"message":...}
extends SceneTree

var failed = false

func _init():
	var lines = []
	for a in OS.get_cmdline_args():
		if a.begins_with("--list="):
			var f = File.new()
			if f.open(a.substr(len("--list="), len(a)), File.READ) != OK:
				_error(a, "cannot read the list file")
			else:
				while not f.eof_reached():
					var line = f.get_line().strip_edges()
					if line != "" and not line.begins_with("#"):
						lines.append(line)
				f.close()
	for line in lines:
		_play(line)
	quit(1 if failed else 0)

func _error(scene, message):
	failed = true
	print(to_json({"kind": "error", "scene": scene, "message": message}))

func _num(v):
	if is_nan(v) or is_inf(v):
		return "null"
	var a = abs(v)
	if a == 0.0:
		return "0.0"
	if a >= 1.0:
		return "%.9f" % v
	var e = int(floor(log(a) / log(10.0)))
	var m = v / pow(10.0, e)
	if abs(m) >= 9.9999999995:
		m /= 10.0
		e += 1
	elif abs(m) < 1.0:
		m *= 10.0
		e -= 1
	var sign_e = "-" if e < 0 else "+"
	return "%.8fe%s%02d" % [m, sign_e, abs(e)]

func _xform(t):
	return "[%s,%s,%s,%s,%s,%s]" % [_num(t.x.x), _num(t.x.y), _num(t.y.x), _num(t.y.y), _num(t.origin.x), _num(t.origin.y)]

func _player(node):
	if node is AnimationPlayer:
		return node
	for c in node.get_children():
		var p = _player(c)
		if p != null:
			return p
	return null

func _print_items(scene, node):
	if node is CanvasItem:
		var path = "." if node == scene else str(scene.get_path_to(node))
		print("{\"kind\":\"item\",\"path\":%s,\"global\":%s}" % [to_json(path), _xform(node.get_global_transform())])
	for c in node.get_children():
		_print_items(scene, c)

func _play(line):
	var parts = line.split(" ", false)
	var path = parts[0]
	if not (path.begins_with("res://") or path.begins_with("/")):
		path = "res://" + path
	var packed = ResourceLoader.load(path, "PackedScene", true)
	if packed == null:
		_error(path, "cannot load it as a PackedScene")
		return
	var scene = packed.instance()
	root.add_child(scene)
	var player = _player(scene)
	if player == null:
		_error(path, "no AnimationPlayer")
		root.remove_child(scene)
		scene.free()
		return
	var name = player.autoplay
	if name == "":
		name = player.get_animation_list()[0]
	var anim = player.get_animation(name)
	print(to_json({"kind": "begin", "scene": path, "animation": name, "length": anim.length, "loop": anim.loop}))
	player.play(name)
	for k in range(1, parts.size()):
		var t = float(parts[k])
		player.seek(t, true)
		print("{\"kind\":\"time\",\"t\":%s}" % _num(t))
		_print_items(scene, scene)
	print(to_json({"kind": "end", "scene": path}))
	root.remove_child(scene)
	scene.free()
