/* seekscope report (placeholder). */
#include <stdio.h>
#include "commands.h"

int ss_cmd_report(int argc, char **argv)
{
	(void)argc; (void)argv;
	fprintf(stderr, "seekscope report: not built yet\n");
	return 1;
}
