//===- PassCounters.cpp - what each pass did, in any LLVM build -----------===//

#include "tfc/Support/PassCounters.h"

#include "llvm/Support/CommandLine.h"

#include <mutex>
#include <string>
#include <vector>

namespace tfc {
namespace {

struct Entry {
  const void *pass;
  std::string passName;
  std::string name;
  std::string description;
  uint64_t value = 0;
};

struct Report {
  std::mutex mutex;
  std::vector<Entry> entries;
};

Report &report() {
  static Report *r = new Report();
  return *r;
}

} // namespace

PassCounter::PassCounter(mlir::Pass *pass, const char *name,
                         const char *description)
    : pass(pass), name(name), description(description) {}

PassCounter &PassCounter::operator+=(uint64_t delta) {
  Report &r = report();
  std::lock_guard<std::mutex> lock(r.mutex);
  if (entry < 0) {
    entry = r.entries.size();
    r.entries.push_back(
        {pass, pass->getName().str(), name, description, 0});
  }
  r.entries[entry].value += delta;
  return *this;
}

PassCounter &PassCounter::operator=(uint64_t value) {
  *this += 0;
  std::lock_guard<std::mutex> lock(report().mutex);
  report().entries[entry].value = value;
  return *this;
}

uint64_t PassCounter::value() const {
  if (entry < 0)
    return 0;
  std::lock_guard<std::mutex> lock(report().mutex);
  return report().entries[entry].value;
}

void printPassCounters(llvm::raw_ostream &os) {
  Report &r = report();
  std::lock_guard<std::mutex> lock(r.mutex);
  os << "===" << std::string(73, '-') << "===\n"
     << "                         ... Pass statistics report ...\n"
     << "===" << std::string(73, '-') << "===\n";
  const void *last = nullptr;
  for (const Entry &e : r.entries) {
    if (e.pass != last)
      os << e.passName << "\n";
    last = e.pass;
    os << "  (S) " << e.value << " " << e.name << " - " << e.description
       << "\n";
  }
}

bool takePassStatisticsFlag() {
  auto &options = llvm::cl::getRegisteredOptions();
  auto it = options.find("mlir-pass-statistics");
  if (it == options.end())
    return false;
  // The option is MLIR's cl::opt<bool>.
  auto *flag = static_cast<llvm::cl::opt<bool> *>(it->second);
  bool requested = flag->getValue();
  flag->setValue(false);
  return requested;
}

} // namespace tfc
