;; The Summary's hot loop over a float32 vector column, in WebAssembly SIMD (four items an instruction).
;; `npm run wasm` compiles this file into vectorScan.wasm.ts; vectorScan.ts loads it, and holds the same
;; computation in JavaScript (the reference the tests compare this with, and the path where SIMD is missing).
;;
;; For each vector it writes
;; - the sum of the squares of its items, in f64: eight running sums (item k goes to sum k mod 8), added as
;;   ((s0+s2)+(s4+s6)) + ((s1+s3)+(s5+s7)), then the items past the last whole block of 16, in order;
;; - a 64-bit hash of its items' bits, as two 32-bit words. Word k goes to lane k mod 16; each lane runs two
;;   chains, h (FNV-1a's multiplier, then h ^= h >>> 15) and g (another multiplier and shift, other seeds), so a
;;   lane holds 64 bits and two vectors that differ only within one lane still differ in their hash but for
;;   odds of 2^-64. The 32 chains are then folded in order twice, once by each step, into the two words, and
;;   the words past the last whole block of 16 go into both. The shift matters: multiplying carries a change
;;   only towards the high bits, so without it two changes to the same high bit (two items' signs) cancel out.
;;
;; Memory: bytes 0-127 hold the chains while they are folded; the caller places the items, squares and hashes.
(module
  (memory (export "memory") 1)

  ;; One word into a running hash, by the h chains' step and by the g chains' step.
  (func $mixH (param $h i32) (param $w i32) (result i32)
    (local.set $h (i32.mul (i32.xor (local.get $h) (local.get $w)) (i32.const 0x01000193)))
    (i32.xor (local.get $h) (i32.shr_u (local.get $h) (i32.const 15))))
  (func $mixG (param $g i32) (param $w i32) (result i32)
    (local.set $g (i32.mul (i32.xor (local.get $g) (local.get $w)) (i32.const 0x5bd1e995)))
    (i32.xor (local.get $g) (i32.shr_u (local.get $g) (i32.const 13))))

  ;; `rows` vectors of `d` float32 items laid end to end at `items`: squares to f64s at `squares`, one per
  ;; vector, and hashes to i32 pairs at `hashes` (h word, then g word).
  (func (export "scan") (param $items i32) (param $rows i32) (param $d i32) (param $squares i32) (param $hashes i32)
    (local $r i32) (local $p i32) (local $blocksEnd i32) (local $end i32) (local $i i32)
    (local $s0 v128) (local $s1 v128) (local $s2 v128) (local $s3 v128)
    (local $h0 v128) (local $h1 v128) (local $h2 v128) (local $h3 v128)
    (local $g0 v128) (local $g1 v128) (local $g2 v128) (local $g3 v128)
    (local $v v128) (local $primeH v128) (local $primeG v128)
    (local $s f64) (local $x f64) (local $h i32) (local $g i32) (local $w i32) (local $c i32)
    (local.set $primeH (i32x4.splat (i32.const 0x01000193)))
    (local.set $primeG (i32x4.splat (i32.const 0x5bd1e995)))
    (local.set $p (local.get $items))
    (block $rowsDone
      (loop $row
        (br_if $rowsDone (i32.ge_u (local.get $r) (local.get $rows)))
        (local.set $end (i32.add (local.get $p) (i32.shl (local.get $d) (i32.const 2))))
        ;; Whole blocks of 16 items (64 bytes).
        (local.set $blocksEnd (i32.add (local.get $p) (i32.shl (i32.and (local.get $d) (i32.const -16)) (i32.const 2))))
        (local.set $s0 (v128.const i64x2 0 0))
        (local.set $s1 (v128.const i64x2 0 0))
        (local.set $s2 (v128.const i64x2 0 0))
        (local.set $s3 (v128.const i64x2 0 0))
        (local.set $h0 (v128.const i32x4 0x811c9dc5 0x050c5d1f 0x1b873593 0x2d2816fe))
        (local.set $h1 (v128.const i32x4 0x3c6ef372 0x5be0cd19 0x1f83d9ab 0x7f4a7c15))
        (local.set $h2 (v128.const i32x4 0x61c88647 0x27d4eb2f 0x165667b1 0x0c2b2ae3))
        (local.set $h3 (v128.const i32x4 0x6a09e667 0x3f84d5b5 0x243f6a88 0x13198a2e))
        (local.set $g0 (v128.const i32x4 0x85ebca6b 0xc2b2ae35 0x27d4eb2d 0x165667b1))
        (local.set $g1 (v128.const i32x4 0xd3a2646c 0xfd7046c5 0xb55a4f09 0x9e3779b9))
        (local.set $g2 (v128.const i32x4 0x7feb352d 0x846ca68b 0x94d049bb 0xbf58476d))
        (local.set $g3 (v128.const i32x4 0xa54ff53a 0x510e527f 0x9b05688c 0x1f83d9ab))
        (block $blocksDone
          (loop $block
            (br_if $blocksDone (i32.ge_u (local.get $p) (local.get $blocksEnd)))
            ;; Items 0-3: lanes 0-3; items 0-1 to sums 0-1, items 2-3 to sums 2-3.
            (local.set $v (v128.load offset=0 (local.get $p)))
            (local.set $h0 (i32x4.mul (v128.xor (local.get $h0) (local.get $v)) (local.get $primeH)))
            (local.set $h0 (v128.xor (local.get $h0) (i32x4.shr_u (local.get $h0) (i32.const 15))))
            (local.set $g0 (i32x4.mul (v128.xor (local.get $g0) (local.get $v)) (local.get $primeG)))
            (local.set $g0 (v128.xor (local.get $g0) (i32x4.shr_u (local.get $g0) (i32.const 13))))
            (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            (local.set $v (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
            (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            ;; Items 4-7: lanes 4-7, sums 4-7.
            (local.set $v (v128.load offset=16 (local.get $p)))
            (local.set $h1 (i32x4.mul (v128.xor (local.get $h1) (local.get $v)) (local.get $primeH)))
            (local.set $h1 (v128.xor (local.get $h1) (i32x4.shr_u (local.get $h1) (i32.const 15))))
            (local.set $g1 (i32x4.mul (v128.xor (local.get $g1) (local.get $v)) (local.get $primeG)))
            (local.set $g1 (v128.xor (local.get $g1) (i32x4.shr_u (local.get $g1) (i32.const 13))))
            (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            (local.set $v (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
            (local.set $s3 (f64x2.add (local.get $s3) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            ;; Items 8-11: lanes 8-11, sums 0-3.
            (local.set $v (v128.load offset=32 (local.get $p)))
            (local.set $h2 (i32x4.mul (v128.xor (local.get $h2) (local.get $v)) (local.get $primeH)))
            (local.set $h2 (v128.xor (local.get $h2) (i32x4.shr_u (local.get $h2) (i32.const 15))))
            (local.set $g2 (i32x4.mul (v128.xor (local.get $g2) (local.get $v)) (local.get $primeG)))
            (local.set $g2 (v128.xor (local.get $g2) (i32x4.shr_u (local.get $g2) (i32.const 13))))
            (local.set $s0 (f64x2.add (local.get $s0) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            (local.set $v (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
            (local.set $s1 (f64x2.add (local.get $s1) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            ;; Items 12-15: lanes 12-15, sums 4-7.
            (local.set $v (v128.load offset=48 (local.get $p)))
            (local.set $h3 (i32x4.mul (v128.xor (local.get $h3) (local.get $v)) (local.get $primeH)))
            (local.set $h3 (v128.xor (local.get $h3) (i32x4.shr_u (local.get $h3) (i32.const 15))))
            (local.set $g3 (i32x4.mul (v128.xor (local.get $g3) (local.get $v)) (local.get $primeG)))
            (local.set $g3 (v128.xor (local.get $g3) (i32x4.shr_u (local.get $g3) (i32.const 13))))
            (local.set $s2 (f64x2.add (local.get $s2) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            (local.set $v (i8x16.shuffle 8 9 10 11 12 13 14 15 0 1 2 3 4 5 6 7 (local.get $v) (local.get $v)))
            (local.set $s3 (f64x2.add (local.get $s3) (f64x2.mul (f64x2.promote_low_f32x4 (local.get $v)) (f64x2.promote_low_f32x4 (local.get $v)))))
            (local.set $p (i32.add (local.get $p) (i32.const 64)))
            (br $block)))
        ;; The eight sums: lane 0 is (s0+s2)+(s4+s6), lane 1 is (s1+s3)+(s5+s7).
        (local.set $s0 (f64x2.add (f64x2.add (local.get $s0) (local.get $s1)) (f64x2.add (local.get $s2) (local.get $s3))))
        (local.set $s (f64.add (f64x2.extract_lane 0 (local.get $s0)) (f64x2.extract_lane 1 (local.get $s0))))
        ;; The 32 chains (h lanes 0-15, then g lanes 0-15), folded in order by each step.
        (v128.store offset=0 (i32.const 0) (local.get $h0))
        (v128.store offset=16 (i32.const 0) (local.get $h1))
        (v128.store offset=32 (i32.const 0) (local.get $h2))
        (v128.store offset=48 (i32.const 0) (local.get $h3))
        (v128.store offset=64 (i32.const 0) (local.get $g0))
        (v128.store offset=80 (i32.const 0) (local.get $g1))
        (v128.store offset=96 (i32.const 0) (local.get $g2))
        (v128.store offset=112 (i32.const 0) (local.get $g3))
        (local.set $h (i32.const 0x811c9dc5))
        (local.set $g (i32.const 0x050c5d1f))
        (local.set $i (i32.const 0))
        (block $foldDone
          (loop $fold
            (br_if $foldDone (i32.ge_u (local.get $i) (i32.const 128)))
            (local.set $c (i32.load (local.get $i)))
            (local.set $h (call $mixH (local.get $h) (local.get $c)))
            (local.set $g (call $mixG (local.get $g) (local.get $c)))
            (local.set $i (i32.add (local.get $i) (i32.const 4)))
            (br $fold)))
        ;; The items past the last whole block.
        (block $tailDone
          (loop $tail
            (br_if $tailDone (i32.ge_u (local.get $p) (local.get $end)))
            (local.set $w (i32.load (local.get $p)))
            (local.set $x (f64.promote_f32 (f32.reinterpret_i32 (local.get $w))))
            (local.set $s (f64.add (local.get $s) (f64.mul (local.get $x) (local.get $x))))
            (local.set $h (call $mixH (local.get $h) (local.get $w)))
            (local.set $g (call $mixG (local.get $g) (local.get $w)))
            (local.set $p (i32.add (local.get $p) (i32.const 4)))
            (br $tail)))
        (f64.store (i32.add (local.get $squares) (i32.shl (local.get $r) (i32.const 3))) (local.get $s))
        (i32.store (i32.add (local.get $hashes) (i32.shl (local.get $r) (i32.const 3))) (local.get $h))
        (i32.store offset=4 (i32.add (local.get $hashes) (i32.shl (local.get $r) (i32.const 3))) (local.get $g))
        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $row)))))
