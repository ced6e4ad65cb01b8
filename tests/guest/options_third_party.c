/* Stands for a library's code that is not warning-clean: -Wall -Werror would reject the unused
 * variable, so this builds only because THIRD_PARTY_SOURCES are compiled without -Wall. */
int third_party_sum(int n) {
  int unused;
  int s = 0;
  for (int i = 1; i <= n; ++i) s += i;
  return s;
}
