build/render/cmd_report.o: render/cmd_report.c collector/commands.h
collector/commands.h:
