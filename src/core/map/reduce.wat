;; The UMAP map's per-row projection onto its k PCA axes, in WebAssembly SIMD (two f64 lanes an instruction):
;; out[r·k + j] = Σ_q items[r·d + q] · axes[j·d + q] − shifts[j], for every row r and axis j. `npm run wasm` compiles
;; this file into reduce.wasm.ts; the UMAP worker (umapWorker.ts) runs it for the sample and for every scanned row,
;; so a sample row met again in the scan lands on exactly its own point.
;;
;; Each row is first widened to f64 in `scratch` (d f64), then each axis is a dot product with two running f64x2
;; sums (item q goes to sum q mod 4), added as (s0 + s2) + (s1 + s3), then the items past the last whole group of 4
;; in order. Items are f32 (the table's), axes, shifts and results f64.
(module
  (memory (export "memory") 1)

  (func (export "reduce") (param $items i32) (param $rows i32) (param $d i32) (param $axes i32) (param $k i32)
    (param $shifts i32) (param $out i32) (param $scratch i32)
    (local $r i32) (local $j i32) (local $q i32) (local $p i32) (local $a i32) (local $quads i32)
    (local $v v128) (local $s0 v128) (local $s1 v128) (local $s f64)
    ;; Bytes of the items that make whole groups of 4.
    (local.set $quads (i32.shl (i32.and (local.get $d) (i32.const -4)) (i32.const 2)))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $p (i32.add (local.get $items) (i32.shl (i32.mul (local.get $r) (local.get $d)) (i32.const 2))))
        ;; Widen the row: 4 items (16 bytes) into 32 bytes of scratch at a time, then the rest one by one.
        (local.set $q (i32.const 0))
        (block $widened
          (loop $widen
            (br_if $widened (i32.ge_u (local.get $q) (local.get $quads)))
            (local.set $v (v128.load (i32.add (local.get $p) (local.get $q))))
            (v128.store (i32.add (local.get $scratch) (i32.shl (local.get $q) (i32.const 1))) (f64x2.promote_low_f32x4 (local.get $v)))
            (v128.store offset=16 (i32.add (local.get $scratch) (i32.shl (local.get $q) (i32.const 1)))
              (f64x2.promote_low_f32x4 (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v))))
            (local.set $q (i32.add (local.get $q) (i32.const 16)))
            (br $widen)))
        (block $tailWidened
          (loop $tailWiden
            (br_if $tailWidened (i32.ge_u (local.get $q) (i32.shl (local.get $d) (i32.const 2))))
            (f64.store (i32.add (local.get $scratch) (i32.shl (local.get $q) (i32.const 1))) (f64.promote_f32 (f32.load (i32.add (local.get $p) (local.get $q)))))
            (local.set $q (i32.add (local.get $q) (i32.const 4)))
            (br $tailWiden)))
        ;; One dot product per axis; $q counts item bytes as f32 (4 a item), so f64 offsets are $q · 2.
        (local.set $j (i32.const 0))
        (block $axesDone
          (loop $axis
            (br_if $axesDone (i32.ge_u (local.get $j) (local.get $k)))
            (local.set $a (i32.add (local.get $axes) (i32.shl (i32.mul (local.get $j) (local.get $d)) (i32.const 3))))
            (local.set $s0 (v128.const i64x2 0 0))
            (local.set $s1 (v128.const i64x2 0 0))
            (local.set $q (i32.const 0))
            (block $quadsDone
              (loop $quad
                (br_if $quadsDone (i32.ge_u (local.get $q) (local.get $quads)))
                (local.set $s0 (f64x2.add (local.get $s0)
                  (f64x2.mul (v128.load (i32.add (local.get $scratch) (i32.shl (local.get $q) (i32.const 1))))
                             (v128.load (i32.add (local.get $a) (i32.shl (local.get $q) (i32.const 1)))))))
                (local.set $s1 (f64x2.add (local.get $s1)
                  (f64x2.mul (v128.load offset=16 (i32.add (local.get $scratch) (i32.shl (local.get $q) (i32.const 1))))
                             (v128.load offset=16 (i32.add (local.get $a) (i32.shl (local.get $q) (i32.const 1)))))))
                (local.set $q (i32.add (local.get $q) (i32.const 16)))
                (br $quad)))
            (local.set $s0 (f64x2.add (local.get $s0) (local.get $s1)))
            (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $s0)) (f64x2.extract_lane 1 (local.get $s0))))
            (block $tailDone
              (loop $tail
                (br_if $tailDone (i32.ge_u (local.get $q) (i32.shl (local.get $d) (i32.const 2))))
                (local.set $s (f64.add (local.get $s)
                  (f64.mul (f64.load (i32.add (local.get $scratch) (i32.shl (local.get $q) (i32.const 1))))
                           (f64.load (i32.add (local.get $a) (i32.shl (local.get $q) (i32.const 1)))))))
                (local.set $q (i32.add (local.get $q) (i32.const 4)))
                (br $tail)))
            (f64.store
              (i32.add (local.get $out) (i32.shl (i32.add (i32.mul (local.get $r) (local.get $k)) (local.get $j)) (i32.const 3)))
              (f64.sub (local.get $s) (f64.load (i32.add (local.get $shifts) (i32.shl (local.get $j) (i32.const 3))))))
            (local.set $j (i32.add (local.get $j) (i32.const 1)))
            (br $axis)))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
