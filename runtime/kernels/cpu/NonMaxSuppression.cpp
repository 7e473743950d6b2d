//===- NonMaxSuppression.cpp - greedy box selection by score --------------===//
//
// NonMaxSuppressionV2 to V5 (tf.image.non_max_suppression and its
// padded and soft forms), as TensorFlow's kernel selects: candidates above
// the score threshold leave a priority queue by score, ties to the lower
// box index; a candidate is dropped when its IoU with a box already
// selected reaches the IoU threshold, and with soft-NMS (sigma > 0) each
// such comparison first scales its score by exp(-IoU^2 / (2 sigma)), the
// candidate going back into the queue with its lower score. Each
// candidate compares only with the boxes selected since it last did
// (`since`), as TensorFlow's does. Boxes are [y1, x1, y2, x2] with the
// corners in either order.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <queue>
#include <vector>

namespace {

struct Candidate {
  int32_t box;
  float score;
  int64_t since;
};

/// The queue's order: higher scores first, then lower box indices.
struct Later {
  bool operator()(const Candidate &a, const Candidate &b) const {
    return a.score < b.score || (a.score == b.score && a.box > b.box);
  }
};

float iou(const float *boxes, int64_t i, int64_t j) {
  const float *a = boxes + 4 * i, *b = boxes + 4 * j;
  float aTop = std::min(a[0], a[2]), aLeft = std::min(a[1], a[3]);
  float aBottom = std::max(a[0], a[2]), aRight = std::max(a[1], a[3]);
  float bTop = std::min(b[0], b[2]), bLeft = std::min(b[1], b[3]);
  float bBottom = std::max(b[0], b[2]), bRight = std::max(b[1], b[3]);
  float aArea = (aBottom - aTop) * (aRight - aLeft);
  float bArea = (bBottom - bTop) * (bRight - bLeft);
  if (aArea <= 0 || bArea <= 0)
    return 0;
  float height = std::max(std::min(aBottom, bBottom) - std::max(aTop, bTop), 0.0f);
  float width = std::max(std::min(aRight, bRight) - std::max(aLeft, bLeft), 0.0f);
  float intersection = height * width;
  return intersection / (aArea + bArea - intersection);
}

} // namespace

extern "C" void tfc_cpu_non_max_suppression(
    tfc_runtime *runtime, const float *boxes, const float *scores,
    const int32_t *max_output_size, const float *iou_threshold,
    const float *score_threshold, const float *soft_nms_sigma,
    int32_t *selected, float *selected_scores, int32_t *valid,
    const char *node, int64_t num_boxes, int64_t capacity) {
  const float threshold = *iou_threshold;
  if (!(threshold >= 0 && threshold <= 1))
    tfc::rt::failAt(runtime, node, "iou_threshold must be in [0, 1]");
  const float sigma = soft_nms_sigma ? *soft_nms_sigma : 0.0f;
  if (!(sigma >= 0))
    tfc::rt::failAt(runtime, node, "soft_nms_sigma_val must be >= 0");
  const float floor = score_threshold ? *score_threshold
                                      : std::numeric_limits<float>::lowest();
  const int64_t wanted = std::min<int64_t>(*max_output_size, capacity);
  const float scale = sigma > 0 ? -0.5f / sigma : 0.0f;

  std::priority_queue<Candidate, std::vector<Candidate>, Later> queue;
  for (int64_t i = 0; i < num_boxes; ++i)
    if (scores[i] > floor)
      queue.push({int32_t(i), scores[i], 0});
  int64_t count = 0;
  while (count < wanted && !queue.empty()) {
    Candidate next = queue.top();
    queue.pop();
    const float original = next.score;
    bool suppressed = false;
    for (int64_t j = count - 1; j >= next.since; --j) {
      float similarity = iou(boxes, next.box, selected[j]);
      float weight = similarity <= threshold
                         ? std::exp(scale * similarity * similarity)
                         : 0.0f;
      next.score *= weight;
      if (similarity >= threshold) {
        suppressed = true;
        break;
      }
      if (next.score <= floor)
        break;
    }
    next.since = count;
    if (suppressed)
      continue;
    if (next.score == original) {
      selected[count] = next.box;
      if (selected_scores)
        selected_scores[count] = next.score;
      ++count;
    } else if (next.score > floor) {
      queue.push(next);
    }
  }
  std::fill(selected + count, selected + capacity, 0);
  if (selected_scores)
    std::fill(selected_scores + count, selected_scores + capacity, 0.0f);
  if (valid)
    *valid = int32_t(count);
}
