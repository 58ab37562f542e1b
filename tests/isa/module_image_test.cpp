// Module images (the compute cache's entries): a module read back from its
// image is the module written, field for field (its image the same bytes),
// for every valid PTX file of tests/ptx/valid; and bytes that are not an
// image of this build, or are cut short, read as nothing.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "ptxsim/isa/lower.h"
#include "ptxsim/isa/module_image.h"

namespace ptxsim::isa {
namespace {

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ModuleImage, EveryValidPtxFileRoundTrips) {
  unsigned files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(PTXSIM_SOURCE_DIR) + "/tests/ptx/valid")) {
    if (entry.path().extension() != ".ptx") continue;
    CompileResult compiled = compilePtx(readFile(entry.path()));
    if (!compiled.ok()) continue;
    std::string image = writeModuleImage(*compiled.module);
    std::shared_ptr<const Module> back = readModuleImage(image);
    ASSERT_NE(back, nullptr) << entry.path();
    EXPECT_EQ(writeModuleImage(*back), image) << entry.path();
    EXPECT_EQ(back->instructionCount(), compiled.module->instructionCount()) << entry.path();
    EXPECT_EQ(back->symbolIndex, compiled.module->symbolIndex) << entry.path();
    ++files;
  }
  EXPECT_GT(files, 20u);
}

TEST(ModuleImage, InstructionsKeepTheirTableRowsAndOperands) {
  CompileResult compiled = compilePtx(readFile(std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx"));
  ASSERT_TRUE(compiled.ok());
  std::shared_ptr<const Module> back = readModuleImage(writeModuleImage(*compiled.module));
  ASSERT_NE(back, nullptr);
  const Function* before = compiled.module->findFunction("_Z9vectorAddPKfS0_Pfi");
  const Function* after = back->findFunction("_Z9vectorAddPKfS0_Pfi");
  ASSERT_NE(before, nullptr);
  ASSERT_NE(after, nullptr);
  ASSERT_EQ(after->instructions.size(), before->instructions.size());
  for (size_t i = 0; i < before->instructions.size(); ++i) {
    EXPECT_EQ(after->instructions[i].spec, before->instructions[i].spec) << i;
    EXPECT_EQ(after->instructions[i].opcode, before->instructions[i].opcode) << i;
  }
  EXPECT_EQ(after->params.size(), before->params.size());
  EXPECT_EQ(after->registerName(3), before->registerName(3));
  EXPECT_EQ(after->blocks.size(), before->blocks.size());
}

TEST(ModuleImage, OtherBytesReadAsNothing) {
  CompileResult compiled = compilePtx(readFile(std::string(PTXSIM_SOURCE_DIR) + "/examples/vector_add.ptx"));
  ASSERT_TRUE(compiled.ok());
  std::string image = writeModuleImage(*compiled.module);
  EXPECT_EQ(readModuleImage(""), nullptr);
  EXPECT_EQ(readModuleImage("not an image at all"), nullptr);
  EXPECT_EQ(readModuleImage(image.substr(0, image.size() / 2)), nullptr);
  EXPECT_EQ(readModuleImage(image + "x"), nullptr);
  std::string otherBuild = image;
  otherBuild[9] ^= 1;  // the build fingerprint, after the 8-byte magic
  EXPECT_EQ(readModuleImage(otherBuild), nullptr);
}

}  // namespace
}  // namespace ptxsim::isa
