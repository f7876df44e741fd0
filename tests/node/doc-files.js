// The files the documents' code blocks read, as a user has them on disk
// beside the script: docs/onnxruntime.md loads Phi-3.5 mini's config.json
// (its committed fragment) and a model of one RotaryEmbedding node.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { contribRotaryModel } from "./onnx-model.js";

export function documentFiles(root) {
  return {
    "config.json": readFileSync(
      join(root, "tests/vectors/configs/phi-3.5-mini-instruct.v4.json"),
    ),
    // com.microsoft RotaryEmbedding as the document describes it: 3-D input
    // of 32 heads of 96, the whole head rotated, rotate_half.
    "rotary-embedding.onnx": contribRotaryModel({
      interleaved: 0,
      num_heads: 32,
      rotary_embedding_dim: 96,
    }),
  };
}
