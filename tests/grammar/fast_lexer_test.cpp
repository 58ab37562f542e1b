// The hand-written lexer must produce exactly the tokens of the ANTLR
// lexer generated from PtxLexer.g4, on every PTX file the project has.

#include <gtest/gtest.h>

#include "ptxsim/grammar/antlr_runtime.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "PtxLexer.h"
#include "ptxsim/grammar/fast_lexer.h"

namespace ptxsim::grammar {
namespace {

namespace fs = std::filesystem;

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Returns the first difference, or "" when the token streams agree.
std::string compareLexers(const std::string& text) {
  antlr4::ANTLRInputStream input(text);
  antlr::PtxLexer reference(&input);
  reference.removeErrorListeners();
  FastLexer fast(text);
  for (size_t n = 0;; ++n) {
    std::unique_ptr<antlr4::Token> a = reference.nextToken();
    std::unique_ptr<antlr4::Token> b = fast.nextToken();
    if (a->getType() != b->getType() || a->getText() != b->getText() || a->getLine() != b->getLine() ||
        a->getCharPositionInLine() != b->getCharPositionInLine()) {
      std::ostringstream why;
      why << "token " << n << ": ANTLR " << a->getType() << " '" << a->getText() << "' at " << a->getLine() << ":"
          << a->getCharPositionInLine() << ", fast " << b->getType() << " '" << b->getText() << "' at "
          << b->getLine() << ":" << b->getCharPositionInLine();
      return why.str();
    }
    if (a->getType() == antlr4::Token::EOF) return "";
  }
}

std::vector<fs::path> ptxFilesUnder(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.path().extension() == ".ptx") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FastLexer, AgreesWithTheGrammarOnSnippets) {
  for (const char* snippet : {
           ".version 9.0\n.target sm_90a, debug\n", "@!%p1 bra $L__BB0_2;", "ld.global.nc.L1::no_allocate.v4.f32 {%f1,%f2}, [%rd1+-4];",
           "mov.f32 %f1, 0f3F800000; mov.f64 %fd1, 0D3FF0000000000000;", "x = 0x1F, 017, 0b101, 12U, 1.5e3;",
           ".loc 1 12 3, function_name $L__info_string0, inlined_at 1 20 7", "a<<2>>1 ? b : c | d & e ^ ~f % g / h * i",
           "// comment\n/* block\ncomment */ %r<100>", "\"string with \\\" escape\"", "shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1;",
           "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes", "_ __cudart_i2opi_f $x %_y",
       }) {
    EXPECT_EQ(compareLexers(snippet), "") << snippet;
  }
}

TEST(FastLexer, AgreesWithTheGrammarOnProjectPtx) {
  std::vector<fs::path> files = ptxFilesUnder(fs::path(PTXSIM_SOURCE_DIR) / "tests/ptx/valid");
  for (const fs::path& p : ptxFilesUnder(fs::path(PTXSIM_SOURCE_DIR) / "examples")) files.push_back(p);
  // corpus_lexer_agreement names the built corpus: a missing or empty one
  // fails rather than leaving the project's PTX alone to pass.
  if (const char* corpus = std::getenv("PTXSIM_CORPUS_DIR")) {
    std::vector<fs::path> corpusFiles = ptxFilesUnder(corpus);
    ASSERT_FALSE(corpusFiles.empty()) << "PTXSIM_CORPUS_DIR=" << corpus << " holds no PTX files";
    files.insert(files.end(), corpusFiles.begin(), corpusFiles.end());
  }
  ASSERT_FALSE(files.empty());
  for (const fs::path& path : files) EXPECT_EQ(compareLexers(readFile(path)), "") << path;
}

TEST(FastLexer, BoundsNesting) {
  std::string deep(10000, '(');
  FastLexer lexer(deep);
  while (lexer.nextToken()->getType() != antlr4::Token::EOF) {
  }
  EXPECT_TRUE(lexer.limitExceeded());
  EXPECT_EQ(lexer.limitLine(), 1u);
  EXPECT_EQ(lexer.limitColumn(), 257u);
}

}  // namespace
}  // namespace ptxsim::grammar
