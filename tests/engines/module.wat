;; SPDX-License-Identifier: MIT
;;
;; The module both engines run in tests/e2e/engines_v8.sh: two function
;; imports first, so wasm function index N is WAMR's local_func N - 2.
;;
;;   wasm 0  import env.log      (param i32)
;;   wasm 1  import env.tick     (result i32)
;;   wasm 2  sum      local 0    the hot loop: loads and stores in memory
;;   wasm 3  dispatch local 1    a loop around a br_table
;;   wasm 4  cold     local 2    calls both imports, rarely called
;;   wasm 5  unused   local 3    exported, never called (never compiled)
;;
;; wamr_module.S is the WAMR side of the same module (the same names and
;; import count) for the comparison tests.
(module
  (import "env" "log" (func $log (param i32)))
  (import "env" "tick" (func $tick (result i32)))
  (memory (export "mem") 1)

  (func $sum (export "sum") (param $n i32) (result i32)
    (local $i i32) (local $acc i32) (local $a i32)
    (loop $l
      (local.set $a (i32.and (i32.shl (local.get $i) (i32.const 2)) (i32.const 0xfffc)))
      (local.set $acc (i32.add (local.get $acc) (i32.load (local.get $a))))
      (i32.store (local.get $a) (i32.xor (local.get $acc) (local.get $i)))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $acc))

  (func $dispatch (export "dispatch") (param $n i32) (result i32)
    (local $i i32) (local $acc i32)
    (loop $l
      (block $done
        (block $three
          (block $two
            (block $one
              (block $zero
                (br_table $zero $one $two $three
                  (i32.and (i32.xor (local.get $i) (local.get $acc)) (i32.const 3))))
              (local.set $acc (i32.add (local.get $acc) (i32.const 0x9e37)))
              (br $done))
            (local.set $acc (i32.xor (local.get $acc) (local.get $i)))
            (br $done))
          (local.set $acc (i32.mul (local.get $acc) (i32.const 7)))
          (br $done))
        (local.set $acc (i32.rotl (local.get $acc) (i32.const 5))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $l (i32.lt_u (local.get $i) (local.get $n))))
    (local.get $acc))

  (func $cold (export "cold") (param $x i32) (result i32)
    (call $log (local.get $x))
    (i32.add (call $tick) (local.get $x)))

  (func $unused (export "unused") (param $x i32) (result i32)
    (i32.mul (local.get $x) (local.get $x)))
)
