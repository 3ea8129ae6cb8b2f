# Prints every node of Godot 3 scenes as real Godot places them: one JSON object per line.
#
# Run with Debian's headless Godot 3 (package godot3-server, 3.2.3):
#
#   godot3-server --no-window --path PROJECT_DIR -s /abs/path/print_transforms.gd --scene=SCENE
#   godot3-server --no-window --path PROJECT_DIR -s /abs/path/print_transforms.gd --list=FILE
#
# SCENE is a res:// path, a path relative to PROJECT_DIR, or an absolute path. PROJECT_DIR is
# where res:// points (instanced sub-scenes are looked up there); it needs no project.godot.
# --list=FILE names one scene a line (same forms), all loaded by one Godot process (about 0.25 s
# saved per scene). GRAFT_GODOT_SCENE=SCENE in the environment works like --scene.
# Never give the scene as a bare argument: Godot 3.2 runs any bare `x.tscn` argument (even after
# `--`) as its main scene as well; the script refuses it.
# Exit code: 0 when every scene printed, 1 when one failed (its error line says which).
#
# Output on stdout; Godot's own messages are on stderr or do not start with `{`:
#   {"kind":"begin","godot":"3.2.3-stable","scene":"res://x.tscn"}
#   one line per node in pre-order, the scene's root first:
#   {"kind":"item"|"layer"|"node", "path":"A/B" ("." for the root), "name":..., "class":...,
#    "instance":"res://y.tscn"                 only on roots of instanced scenes (and the root)
#    item:  "local":   get_transform()
#           "global":  get_global_transform()  (in its canvas: without its CanvasLayer)
#           "screen":  get_global_transform_with_canvas()  (with its CanvasLayer; cameras off)
#           "canvas_parent": its parent is a CanvasItem (it composes with it), "toplevel": bool
#    layer: "local": get_transform(), "offset":[x,y], "rotation":r, "scale":[x,y], "index":n
#    all:   "layer":"path"|null, "layer_xform":[...]|null, "layer_index":n|null
#           (the nearest enclosing CanvasLayer, its transform and its layer number) }
#   {"kind":"end","scene":...,"nodes":N,"viewport_canvas":[...]}
#   on failure: {"kind":"error","scene":...,"message":...}
# A transform is [xx, xy, yx, yy, ox, oy] in Godot's y-down terms: x axis (xx, xy), y axis
# (yx, yy), origin (ox, oy); a point p goes to (xx*p.x + yx*p.y + ox, xy*p.x + yy*p.y + oy).
# Numbers: 0, or |v| >= 1 as "%.9f"; smaller ones with 9 significant digits (1.23456789e-05),
# so every float32 reads back exactly.
extends SceneTree

var queue = []
var current = null
var current_path = ""
var waited = 0
var count = 0
var failed = false

func _init():
	var env = OS.get_environment("GRAFT_GODOT_SCENE")
	if env != "":
		queue.append(env)
	var bare = ""
	for a in OS.get_cmdline_args():
		if a.begins_with("--scene="):
			queue.append(a.substr(len("--scene="), len(a)))
		elif a.begins_with("--list="):
			_read_list(a.substr(len("--list="), len(a)))
		elif a.ends_with(".tscn") or a.ends_with(".scn"):
			bare = a
	if bare != "":
		_error(bare, "give the scene as --scene=" + bare + ": Godot 3 also runs a bare .tscn argument as its main scene")
		queue.clear()
	elif queue.empty() and not failed:
		_error("", "no scene given: pass --scene=PATH, --list=FILE or GRAFT_GODOT_SCENE=PATH")

func _read_list(list_path):
	var f = File.new()
	if f.open(list_path, File.READ) != OK:
		_error(list_path, "cannot read the list file")
		return
	while not f.eof_reached():
		var line = f.get_line().strip_edges()
		if line != "" and not line.begins_with("#"):
			queue.append(line)
	f.close()

func _error(scene, message):
	failed = true
	print(to_json({"kind": "error", "scene": scene, "message": message}))

func _resource_path(arg):
	if arg.begins_with("res://") or arg.begins_with("/"):
		return arg
	return "res://" + arg

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

func _vec(v):
	return "[%s,%s]" % [_num(v.x), _num(v.y)]

func _str(s):
	return to_json(str(s))

# Cameras would move the default canvas (and ParallaxBackgrounds with it): all of them off.
func _disable_cameras(node):
	if node is Camera2D:
		node.current = false
	for c in node.get_children():
		_disable_cameras(c)

# The scene as its file says, before anything runs: autoplayed animations would pose it at
# time 0 when it enters the tree (overwriting the file's values), AnimationTrees likewise, and
# scripts may move nodes in _ready. Unless GRAFT_GODOT_KEEP_SCRIPTS=1, scripts are detached.
func _freeze(node):
	if node is AnimationPlayer:
		node.autoplay = ""
		node.playback_active = false
	elif node is AnimationTree:
		node.active = false
	if OS.get_environment("GRAFT_GODOT_KEEP_SCRIPTS") != "1" and node.get_script() != null:
		node.set_script(null)
	for c in node.get_children():
		_freeze(c)

func _layer_of(node):
	var p = node.get_parent()
	while p != null and p != root:
		if p is CanvasLayer:
			return p
		p = p.get_parent()
	return null

func _path_of(node):
	if node == current:
		return "."
	return str(current.get_path_to(node))

func _record(node):
	var fields = []
	var kind = "node"
	if node is CanvasItem:
		kind = "item"
	elif node is CanvasLayer:
		kind = "layer"
	fields.append("\"kind\":" + _str(kind))
	fields.append("\"path\":" + _str(_path_of(node)))
	fields.append("\"name\":" + _str(node.name))
	fields.append("\"class\":" + _str(node.get_class()))
	if node.filename != "":
		fields.append("\"instance\":" + _str(node.filename))
	if kind == "item":
		fields.append("\"local\":" + _xform(node.get_transform()))
		fields.append("\"global\":" + _xform(node.get_global_transform()))
		fields.append("\"screen\":" + _xform(node.get_global_transform_with_canvas()))
		fields.append("\"canvas_parent\":" + ("true" if node.get_parent() is CanvasItem else "false"))
		fields.append("\"toplevel\":" + ("true" if node.is_set_as_toplevel() else "false"))
	elif kind == "layer":
		fields.append("\"local\":" + _xform(node.get_transform()))
		fields.append("\"offset\":" + _vec(node.offset))
		fields.append("\"rotation\":" + _num(node.rotation))
		fields.append("\"scale\":" + _vec(node.scale))
		fields.append("\"index\":" + str(node.layer))
	var layer = _layer_of(node)
	if layer != null:
		fields.append("\"layer\":" + _str(_path_of(layer)))
		fields.append("\"layer_xform\":" + _xform(layer.get_transform()))
		fields.append("\"layer_index\":" + str(layer.layer))
	else:
		fields.append("\"layer\":null,\"layer_xform\":null,\"layer_index\":null")
	print("{" + PoolStringArray(fields).join(",") + "}")
	count += 1

func _walk(node):
	_record(node)
	for c in node.get_children():
		_walk(c)

# Instance the next scene of the queue and add it to the tree (printed one frame later).
func _start(arg):
	current_path = _resource_path(arg)
	var packed = ResourceLoader.load(current_path, "PackedScene", true)
	if packed == null or not (packed is PackedScene):
		_error(current_path, "cannot load it as a PackedScene")
		return
	var inst = packed.instance()
	if inst == null:
		_error(current_path, "cannot instance it")
		return
	_disable_cameras(inst)
	_freeze(inst)
	current = inst
	waited = 0
	root.add_child(inst)
	var v = Engine.get_version_info()
	print(to_json({"kind": "begin", "godot": "%d.%d.%d-%s" % [v.major, v.minor, v.patch, v.status], "scene": current_path}))

func _finish():
	# Cameras made current by scripts are turned off again, and the viewport's canvas transform
	# (which a camera sets) reset, so "screen" is the canvas as the scene places it.
	_disable_cameras(current)
	var viewport = get_root()
	viewport.canvas_transform = Transform2D()
	count = 0
	_walk(current)
	print("{\"kind\":\"end\",\"scene\":%s,\"nodes\":%d,\"viewport_canvas\":%s}" % [_str(current_path), count, _xform(viewport.canvas_transform)])
	root.remove_child(current)
	current.free()
	current = null

func _idle(_delta):
	if current != null:
		waited += 1
		if waited >= 1:
			_finish()
		return false
	while current == null and not queue.empty():
		_start(queue.pop_front())
	if current == null:
		quit(1 if failed else 0)
	return false
