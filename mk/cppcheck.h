/* What cppcheck (make lint) is told of the libraries' statement macros,
 * since it reads no system header; given by --include, because cppcheck's
 * -D of a function-like macro breaks its expansion of every other macro.
 * Each is the library's own definition, spelled out. */
#define json_array_foreach(a, i, v) \
	for (i = 0; i < json_array_size(a) && (v = json_array_get(a, i)); i++)
#define json_object_foreach(o, k, v) \
	for (k = json_object_iter_key(json_object_iter(o)); \
	     k && (v = json_object_iter_value(json_object_key_to_iter(k))); \
	     k = json_object_iter_key(json_object_iter_next(o, json_object_key_to_iter(k))))
#define LIBBPF_OPTS(TYPE, NAME, ...) \
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }
#define bpf_object__for_each_program(pos, obj) \
	for ((pos) = bpf_object__next_program((obj), NULL); (pos) != NULL; \
	     (pos) = bpf_object__next_program((obj), (pos)))
