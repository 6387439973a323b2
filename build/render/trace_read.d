build/render/trace_read.o: render/trace_read.c include/seekscope/codec.h \
 include/seekscope/format.h render/trace_read.h
include/seekscope/codec.h:
include/seekscope/format.h:
render/trace_read.h:
