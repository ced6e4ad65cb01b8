// main() for the RapidCheck suites: a fixed seed by default, so runs are repeatable; set
// RC_PARAMS (e.g. RC_PARAMS="seed=7 max_success=1000") to override. RapidCheck prints the
// reproduce string of any failure.
#include <gtest/gtest.h>

#include <cstdlib>

int main(int argc, char** argv) {
  setenv("RC_PARAMS", "seed=20261129", /*overwrite=*/0);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
