"""Derive the bundled model's `onnx/model_int8.onnx` from `onnx/model_quantized.onnx` (same weights).

`model_quantized.onnx` stores int8 weights (per output channel, with zero points) that a
`DequantizeLinear` turns back into floats for float `MatMul`s. This rewrites each of those
`MatMul`s as `DynamicQuantizeLinear(x)` -> `MatMulInteger(x_q, W_q)` -> `* (x_scale * w_scale)`:
the activations are quantised per call (uint8, per tensor) and the product runs in integers, which
ONNX Runtime's WASM build does about twice as fast as the float product (test/bench/query-embed-browser.ts).
The weights are the same numbers, shifted from int8 to uint8 (value + 128, zero point + 128, so
each dequantised weight is unchanged): x86's u8 x s8 kernels saturate 16-bit sums and lose accuracy
(cosine 0.92 to the float path in onnxruntime-node), u8 x u8 does not (cosine >= 0.9993 in WASM and
native alike). The embedding table's `Gather` keeps its `DequantizeLinear`.

Run: python3 packages/embeddings/scripts/int8-activations.py  (needs the `onnx` package; no network)
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, '..', 'model', 'use-lite', 'onnx', 'model_quantized.onnx')
OUT = os.path.join(HERE, '..', 'model', 'use-lite', 'onnx', 'model_int8.onnx')


def to_uint8(tensor):
    shifted = numpy_helper.to_array(tensor).astype(np.int16) + 128
    tensor.CopyFrom(numpy_helper.from_array(shifted.astype(np.uint8), tensor.name))


def main(src=SRC, out=OUT):
    model = onnx.load(src)
    graph = model.graph
    init = {t.name: t for t in graph.initializer}
    dequant = {n.output[0]: n for n in graph.node if n.op_type == 'DequantizeLinear'}
    users = {}
    for n in graph.node:
        for name in n.input:
            users.setdefault(name, []).append(n)
    nodes, shifted, count = [], set(), 0
    for n in graph.node:
        if n.op_type == 'DequantizeLinear' and all(u.op_type == 'MatMul' for u in users.get(n.output[0], [])):
            continue  # replaced by the integer products below
        if n.op_type != 'MatMul' or n.input[1] not in dequant:
            nodes.append(n)
            continue
        w_q, w_scale, w_zero = dequant[n.input[1]].input
        if w_q not in shifted:
            to_uint8(init[w_q])
            to_uint8(init[w_zero])
            shifted.add(w_q)
        p = f'int8_matmul_{count}/'
        count += 1
        nodes += [
            helper.make_node('DynamicQuantizeLinear', [n.input[0]], [p + 'x_q', p + 'x_scale', p + 'x_zero']),
            helper.make_node('MatMulInteger', [p + 'x_q', w_q, p + 'x_zero', w_zero], [p + 'acc']),
            helper.make_node('Cast', [p + 'acc'], [p + 'acc_f'], to=TensorProto.FLOAT),
            helper.make_node('Mul', [p + 'x_scale', w_scale], [p + 'scale']),
            helper.make_node('Mul', [p + 'acc_f', p + 'scale'], [n.output[0]]),
        ]
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    onnx.save(model, out)
    print(f'{count} MatMuls rewritten -> {out}')


if __name__ == '__main__':
    main(*sys.argv[1:])
