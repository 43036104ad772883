// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<25088xf32>
!wei_buf = tensor<2601xf32>
!wei_prepared = tensor<16x1x1x32x2x16xf32>
!bias = tensor<17xf32>

stream.executable private @v10_wino_input {
    stream.executable.export public @v10_wino_input workgroups() -> (index, index, index) {
      %x = arith.constant 14 : index
      %y = arith.constant 1 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @v10_wino_input(%src_binding: !stream.binding, %dst_binding: !stream.binding, %row0: index) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        %cm = arith.constant 2 : index
        %tw_n = arith.constant 14 : index
        %ch_n = arith.constant 32 : index
        %src = stream.binding.subspan %src_binding[%c0] : !stream.binding -> memref<1x30x30x32xf32>
        %dst = stream.binding.subspan %dst_binding[%c0] : !stream.binding -> memref<1x14x14x512xf32>
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %i2 = arith.constant 2 : index
        %i3 = arith.constant 3 : index
        %pos0 = arith.constant 0 : index
        %pos1 = arith.constant 32 : index
        %pos2 = arith.constant 64 : index
        %pos3 = arith.constant 96 : index
        %pos4 = arith.constant 128 : index
        %pos5 = arith.constant 160 : index
        %pos6 = arith.constant 192 : index
        %pos7 = arith.constant 224 : index
        %pos8 = arith.constant 256 : index
        %pos9 = arith.constant 288 : index
        %pos10 = arith.constant 320 : index
        %pos11 = arith.constant 352 : index
        %pos12 = arith.constant 384 : index
        %pos13 = arith.constant 416 : index
        %pos14 = arith.constant 448 : index
        %pos15 = arith.constant 480 : index
        %band_row = hal.interface.workgroup.id[0] : index
        %flat_row = arith.addi %row0, %band_row : index
        %th_n = arith.constant 14 : index
        %th = arith.remui %flat_row, %th_n : index
        %n = arith.divui %flat_row, %th_n : index
        %hb = arith.muli %th, %cm : index
        %h0 = arith.addi %hb, %i0 : index
        %h1 = arith.addi %hb, %i1 : index
        %h2 = arith.addi %hb, %i2 : index
        %h3 = arith.addi %hb, %i3 : index
        scf.for %tw = %c0 to %tw_n step %c1 {
          %wb = arith.muli %tw, %cm : index
          %w0 = arith.addi %wb, %i0 : index
          %w1 = arith.addi %wb, %i1 : index
          %w2 = arith.addi %wb, %i2 : index
          %w3 = arith.addi %wb, %i3 : index
          scf.for %c = %c0 to %ch_n step %c16 {
            %ld0_0 = vector.load %src[%n, %h0, %w0, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld0_1 = vector.load %src[%n, %h0, %w1, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld0_2 = vector.load %src[%n, %h0, %w2, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld0_3 = vector.load %src[%n, %h0, %w3, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld1_0 = vector.load %src[%n, %h1, %w0, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld1_1 = vector.load %src[%n, %h1, %w1, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld1_2 = vector.load %src[%n, %h1, %w2, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld1_3 = vector.load %src[%n, %h1, %w3, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld2_0 = vector.load %src[%n, %h2, %w0, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld2_1 = vector.load %src[%n, %h2, %w1, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld2_2 = vector.load %src[%n, %h2, %w2, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld2_3 = vector.load %src[%n, %h2, %w3, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld3_0 = vector.load %src[%n, %h3, %w0, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld3_1 = vector.load %src[%n, %h3, %w1, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld3_2 = vector.load %src[%n, %h3, %w2, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %ld3_3 = vector.load %src[%n, %h3, %w3, %c] : memref<1x30x30x32xf32>, vector<16xf32>
            %tr0_0 = arith.subf %ld0_0, %ld2_0 : vector<16xf32>
            %tr0_1 = arith.subf %ld0_1, %ld2_1 : vector<16xf32>
            %tr0_2 = arith.subf %ld0_2, %ld2_2 : vector<16xf32>
            %tr0_3 = arith.subf %ld0_3, %ld2_3 : vector<16xf32>
            %tr1_0 = arith.addf %ld1_0, %ld2_0 : vector<16xf32>
            %tr1_1 = arith.addf %ld1_1, %ld2_1 : vector<16xf32>
            %tr1_2 = arith.addf %ld1_2, %ld2_2 : vector<16xf32>
            %tr1_3 = arith.addf %ld1_3, %ld2_3 : vector<16xf32>
            %tr2_0_0 = arith.negf %ld1_0 : vector<16xf32>
            %tr2_0 = arith.addf %tr2_0_0, %ld2_0 : vector<16xf32>
            %tr2_1_0 = arith.negf %ld1_1 : vector<16xf32>
            %tr2_1 = arith.addf %tr2_1_0, %ld2_1 : vector<16xf32>
            %tr2_2_0 = arith.negf %ld1_2 : vector<16xf32>
            %tr2_2 = arith.addf %tr2_2_0, %ld2_2 : vector<16xf32>
            %tr2_3_0 = arith.negf %ld1_3 : vector<16xf32>
            %tr2_3 = arith.addf %tr2_3_0, %ld2_3 : vector<16xf32>
            %tr3_0 = arith.subf %ld1_0, %ld3_0 : vector<16xf32>
            %tr3_1 = arith.subf %ld1_1, %ld3_1 : vector<16xf32>
            %tr3_2 = arith.subf %ld1_2, %ld3_2 : vector<16xf32>
            %tr3_3 = arith.subf %ld1_3, %ld3_3 : vector<16xf32>
            %out0_0 = arith.subf %tr0_0, %tr0_2 : vector<16xf32>
            %out0_1 = arith.addf %tr0_1, %tr0_2 : vector<16xf32>
            %out0_2_0 = arith.negf %tr0_1 : vector<16xf32>
            %out0_2 = arith.addf %out0_2_0, %tr0_2 : vector<16xf32>
            %out0_3 = arith.subf %tr0_1, %tr0_3 : vector<16xf32>
            %out1_0 = arith.subf %tr1_0, %tr1_2 : vector<16xf32>
            %out1_1 = arith.addf %tr1_1, %tr1_2 : vector<16xf32>
            %out1_2_0 = arith.negf %tr1_1 : vector<16xf32>
            %out1_2 = arith.addf %out1_2_0, %tr1_2 : vector<16xf32>
            %out1_3 = arith.subf %tr1_1, %tr1_3 : vector<16xf32>
            %out2_0 = arith.subf %tr2_0, %tr2_2 : vector<16xf32>
            %out2_1 = arith.addf %tr2_1, %tr2_2 : vector<16xf32>
            %out2_2_0 = arith.negf %tr2_1 : vector<16xf32>
            %out2_2 = arith.addf %out2_2_0, %tr2_2 : vector<16xf32>
            %out2_3 = arith.subf %tr2_1, %tr2_3 : vector<16xf32>
            %out3_0 = arith.subf %tr3_0, %tr3_2 : vector<16xf32>
            %out3_1 = arith.addf %tr3_1, %tr3_2 : vector<16xf32>
            %out3_2_0 = arith.negf %tr3_1 : vector<16xf32>
            %out3_2 = arith.addf %out3_2_0, %tr3_2 : vector<16xf32>
            %out3_3 = arith.subf %tr3_1, %tr3_3 : vector<16xf32>

            %st0_0 = arith.addi %c, %pos0 : index
            vector.store %out0_0, %dst[%c0, %band_row, %tw, %st0_0] : memref<1x14x14x512xf32>, vector<16xf32>
            %st0_1 = arith.addi %c, %pos1 : index
            vector.store %out0_1, %dst[%c0, %band_row, %tw, %st0_1] : memref<1x14x14x512xf32>, vector<16xf32>
            %st0_2 = arith.addi %c, %pos2 : index
            vector.store %out0_2, %dst[%c0, %band_row, %tw, %st0_2] : memref<1x14x14x512xf32>, vector<16xf32>
            %st0_3 = arith.addi %c, %pos3 : index
            vector.store %out0_3, %dst[%c0, %band_row, %tw, %st0_3] : memref<1x14x14x512xf32>, vector<16xf32>
            %st1_0 = arith.addi %c, %pos4 : index
            vector.store %out1_0, %dst[%c0, %band_row, %tw, %st1_0] : memref<1x14x14x512xf32>, vector<16xf32>
            %st1_1 = arith.addi %c, %pos5 : index
            vector.store %out1_1, %dst[%c0, %band_row, %tw, %st1_1] : memref<1x14x14x512xf32>, vector<16xf32>
            %st1_2 = arith.addi %c, %pos6 : index
            vector.store %out1_2, %dst[%c0, %band_row, %tw, %st1_2] : memref<1x14x14x512xf32>, vector<16xf32>
            %st1_3 = arith.addi %c, %pos7 : index
            vector.store %out1_3, %dst[%c0, %band_row, %tw, %st1_3] : memref<1x14x14x512xf32>, vector<16xf32>
            %st2_0 = arith.addi %c, %pos8 : index
            vector.store %out2_0, %dst[%c0, %band_row, %tw, %st2_0] : memref<1x14x14x512xf32>, vector<16xf32>
            %st2_1 = arith.addi %c, %pos9 : index
            vector.store %out2_1, %dst[%c0, %band_row, %tw, %st2_1] : memref<1x14x14x512xf32>, vector<16xf32>
            %st2_2 = arith.addi %c, %pos10 : index
            vector.store %out2_2, %dst[%c0, %band_row, %tw, %st2_2] : memref<1x14x14x512xf32>, vector<16xf32>
            %st2_3 = arith.addi %c, %pos11 : index
            vector.store %out2_3, %dst[%c0, %band_row, %tw, %st2_3] : memref<1x14x14x512xf32>, vector<16xf32>
            %st3_0 = arith.addi %c, %pos12 : index
            vector.store %out3_0, %dst[%c0, %band_row, %tw, %st3_0] : memref<1x14x14x512xf32>, vector<16xf32>
            %st3_1 = arith.addi %c, %pos13 : index
            vector.store %out3_1, %dst[%c0, %band_row, %tw, %st3_1] : memref<1x14x14x512xf32>, vector<16xf32>
            %st3_2 = arith.addi %c, %pos14 : index
            vector.store %out3_2, %dst[%c0, %band_row, %tw, %st3_2] : memref<1x14x14x512xf32>, vector<16xf32>
            %st3_3 = arith.addi %c, %pos15 : index
            vector.store %out3_3, %dst[%c0, %band_row, %tw, %st3_3] : memref<1x14x14x512xf32>, vector<16xf32>
          }
        }
        return
      }
    }
}
stream.executable private @v14_brgemm {
    stream.executable.export public @v14_brgemm workgroups() -> (index, index, index) {
      %x = arith.constant 1 : index
      %y = arith.constant 16 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @v14_brgemm(%x_binding: !stream.binding, %w_binding: !stream.binding, %y_binding: !stream.binding) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %x = stream.binding.subspan %x_binding[%c0] : !stream.binding -> memref<1x1x196x512xf32>
        %w = stream.binding.subspan %w_binding[%c0] : !stream.binding -> memref<16x1x1x32x2x16xf32>
        %y = stream.binding.subspan %y_binding[%c0] : !stream.binding -> memref<1x1x196x512xf32>
        %ohb = hal.interface.workgroup.id[0] : index
        %ob = hal.interface.workgroup.id[1] : index
        %z = hal.interface.workgroup.id[2] : index
        %n = arith.addi %z, %c0 : index
        %img0 = arith.addi %z, %c0 : index
        %kh_n = arith.constant 1 : index
        %kw_n = arith.constant 1 : index
        %ick_n = arith.constant 32 : index
        %sh = arith.constant 1 : index
        %sw = arith.constant 1 : index
        %dh = arith.constant 1 : index
        %dw = arith.constant 1 : index
        %rw = arith.constant 14 : index
        %rh = arith.constant 1 : index
        %oh_n = arith.constant 1 : index
        %owb_n = arith.constant 14 : index
        %oc_step = arith.constant 32 : index
        %oc0 = arith.muli %ob, %oc_step : index
        %ocbg_n = arith.constant 1 : index
        %g = arith.divui %ob, %ocbg_n : index
        %icgp = arith.constant 32 : index
        %icg0 = arith.muli %g, %icgp : index
        %oh_lo = arith.muli %ohb, %rh : index
        %oh_end = arith.addi %oh_lo, %rh : index
        %oh_hi = arith.minui %oh_end, %oh_n : index
        %zero = arith.constant dense<0.0> : vector<16xf32>
        %ck = arith.constant 1 : index
        %r0 = arith.constant 0 : index
        %rs0 = arith.constant 0 : index
        %r1 = arith.constant 1 : index
        %rs1 = arith.constant 1 : index
        %r2 = arith.constant 2 : index
        %rs2 = arith.constant 2 : index
        %r3 = arith.constant 3 : index
        %rs3 = arith.constant 3 : index
        %r4 = arith.constant 4 : index
        %rs4 = arith.constant 4 : index
        %r5 = arith.constant 5 : index
        %rs5 = arith.constant 5 : index
        %r6 = arith.constant 6 : index
        %rs6 = arith.constant 6 : index
        %r7 = arith.constant 7 : index
        %rs7 = arith.constant 7 : index
        %r8 = arith.constant 8 : index
        %rs8 = arith.constant 8 : index
        %r9 = arith.constant 9 : index
        %rs9 = arith.constant 9 : index
        %r10 = arith.constant 10 : index
        %rs10 = arith.constant 10 : index
        %r11 = arith.constant 11 : index
        %rs11 = arith.constant 11 : index
        %r12 = arith.constant 12 : index
        %rs12 = arith.constant 12 : index
        %r13 = arith.constant 13 : index
        %rs13 = arith.constant 13 : index
        %o0 = arith.constant 0 : index
        %o16_0 = arith.constant 0 : index
        %ocv0 = arith.addi %oc0, %o16_0 : index
        %o1 = arith.constant 1 : index
        %o16_1 = arith.constant 16 : index
        %ocv1 = arith.addi %oc0, %o16_1 : index
        scf.for %oh = %oh_lo to %oh_hi step %c1 {
          %ih0 = arith.muli %oh, %sh : index
          scf.for %owb = %c0 to %owb_n step %c1 {
            %ow0 = arith.muli %owb, %rw : index
            %iwb = arith.muli %ow0, %sw : index
            %h:28 = scf.for %kh = %c0 to %kh_n step %c1 iter_args(%h0_0 = %zero, %h0_1 = %zero, %h1_0 = %zero, %h1_1 = %zero, %h2_0 = %zero, %h2_1 = %zero, %h3_0 = %zero, %h3_1 = %zero, %h4_0 = %zero, %h4_1 = %zero, %h5_0 = %zero, %h5_1 = %zero, %h6_0 = %zero, %h6_1 = %zero, %h7_0 = %zero, %h7_1 = %zero, %h8_0 = %zero, %h8_1 = %zero, %h9_0 = %zero, %h9_1 = %zero, %h10_0 = %zero, %h10_1 = %zero, %h11_0 = %zero, %h11_1 = %zero, %h12_0 = %zero, %h12_1 = %zero, %h13_0 = %zero, %h13_1 = %zero) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
              %img = arith.addi %img0, %c0 : index
              %khi = arith.addi %kh, %c0 : index
              %khd = arith.muli %kh, %dh : index
              %ih = arith.addi %ih0, %khd : index
              %t:28 = scf.for %kw = %c0 to %kw_n step %c1 iter_args(%t0_0 = %h0_0, %t0_1 = %h0_1, %t1_0 = %h1_0, %t1_1 = %h1_1, %t2_0 = %h2_0, %t2_1 = %h2_1, %t3_0 = %h3_0, %t3_1 = %h3_1, %t4_0 = %h4_0, %t4_1 = %h4_1, %t5_0 = %h5_0, %t5_1 = %h5_1, %t6_0 = %h6_0, %t6_1 = %h6_1, %t7_0 = %h7_0, %t7_1 = %h7_1, %t8_0 = %h8_0, %t8_1 = %h8_1, %t9_0 = %h9_0, %t9_1 = %h9_1, %t10_0 = %h10_0, %t10_1 = %h10_1, %t11_0 = %h11_0, %t11_1 = %h11_1, %t12_0 = %h12_0, %t12_1 = %h12_1, %t13_0 = %h13_0, %t13_1 = %h13_1) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
                %kwd = arith.muli %kw, %dw : index
                %iwk = arith.addi %iwb, %kwd : index
                %q:28 = scf.for %ig = %c0 to %ick_n step %c1 iter_args(%q0_0 = %t0_0, %q0_1 = %t0_1, %q1_0 = %t1_0, %q1_1 = %t1_1, %q2_0 = %t2_0, %q2_1 = %t2_1, %q3_0 = %t3_0, %q3_1 = %t3_1, %q4_0 = %t4_0, %q4_1 = %t4_1, %q5_0 = %t5_0, %q5_1 = %t5_1, %q6_0 = %t6_0, %q6_1 = %t6_1, %q7_0 = %t7_0, %q7_1 = %t7_1, %q8_0 = %t8_0, %q8_1 = %t8_1, %q9_0 = %t9_0, %q9_1 = %t9_1, %q10_0 = %t10_0, %q10_1 = %t10_1, %q11_0 = %t11_0, %q11_1 = %t11_1, %q12_0 = %t12_0, %q12_1 = %t12_1, %q13_0 = %t13_0, %q13_1 = %t13_1) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
                  %icl = arith.muli %ig, %ck : index
                  %ic = arith.addi %icg0, %icl : index
                  %wv0 = vector.load %w[%ob, %khi, %kw, %ig, %o0, %c0] : memref<16x1x1x32x2x16xf32>, vector<16xf32>
                  %wv1 = vector.load %w[%ob, %khi, %kw, %ig, %o1, %c0] : memref<16x1x1x32x2x16xf32>, vector<16xf32>
                  %ix0 = arith.addi %iwk, %rs0 : index
                  %xq0 = vector.load %x[%img, %ih, %ix0, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd0 = vector.bitcast %xq0 : vector<1xf32> to vector<1xi32>
                  %xs0 = vector.extract %xd0[0] : i32 from vector<1xi32>
                  %xb0 = vector.broadcast %xs0 : i32 to vector<16xi32>
                  %xv0 = vector.bitcast %xb0 : vector<16xi32> to vector<16xf32>
                  %s0_0 = vector.fma %xv0, %wv0, %q0_0 : vector<16xf32>

                  %s0_1 = vector.fma %xv0, %wv1, %q0_1 : vector<16xf32>

                  %ix1 = arith.addi %iwk, %rs1 : index
                  %xq1 = vector.load %x[%img, %ih, %ix1, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd1 = vector.bitcast %xq1 : vector<1xf32> to vector<1xi32>
                  %xs1 = vector.extract %xd1[0] : i32 from vector<1xi32>
                  %xb1 = vector.broadcast %xs1 : i32 to vector<16xi32>
                  %xv1 = vector.bitcast %xb1 : vector<16xi32> to vector<16xf32>
                  %s1_0 = vector.fma %xv1, %wv0, %q1_0 : vector<16xf32>

                  %s1_1 = vector.fma %xv1, %wv1, %q1_1 : vector<16xf32>

                  %ix2 = arith.addi %iwk, %rs2 : index
                  %xq2 = vector.load %x[%img, %ih, %ix2, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd2 = vector.bitcast %xq2 : vector<1xf32> to vector<1xi32>
                  %xs2 = vector.extract %xd2[0] : i32 from vector<1xi32>
                  %xb2 = vector.broadcast %xs2 : i32 to vector<16xi32>
                  %xv2 = vector.bitcast %xb2 : vector<16xi32> to vector<16xf32>
                  %s2_0 = vector.fma %xv2, %wv0, %q2_0 : vector<16xf32>

                  %s2_1 = vector.fma %xv2, %wv1, %q2_1 : vector<16xf32>

                  %ix3 = arith.addi %iwk, %rs3 : index
                  %xq3 = vector.load %x[%img, %ih, %ix3, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd3 = vector.bitcast %xq3 : vector<1xf32> to vector<1xi32>
                  %xs3 = vector.extract %xd3[0] : i32 from vector<1xi32>
                  %xb3 = vector.broadcast %xs3 : i32 to vector<16xi32>
                  %xv3 = vector.bitcast %xb3 : vector<16xi32> to vector<16xf32>
                  %s3_0 = vector.fma %xv3, %wv0, %q3_0 : vector<16xf32>

                  %s3_1 = vector.fma %xv3, %wv1, %q3_1 : vector<16xf32>

                  %ix4 = arith.addi %iwk, %rs4 : index
                  %xq4 = vector.load %x[%img, %ih, %ix4, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd4 = vector.bitcast %xq4 : vector<1xf32> to vector<1xi32>
                  %xs4 = vector.extract %xd4[0] : i32 from vector<1xi32>
                  %xb4 = vector.broadcast %xs4 : i32 to vector<16xi32>
                  %xv4 = vector.bitcast %xb4 : vector<16xi32> to vector<16xf32>
                  %s4_0 = vector.fma %xv4, %wv0, %q4_0 : vector<16xf32>

                  %s4_1 = vector.fma %xv4, %wv1, %q4_1 : vector<16xf32>

                  %ix5 = arith.addi %iwk, %rs5 : index
                  %xq5 = vector.load %x[%img, %ih, %ix5, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd5 = vector.bitcast %xq5 : vector<1xf32> to vector<1xi32>
                  %xs5 = vector.extract %xd5[0] : i32 from vector<1xi32>
                  %xb5 = vector.broadcast %xs5 : i32 to vector<16xi32>
                  %xv5 = vector.bitcast %xb5 : vector<16xi32> to vector<16xf32>
                  %s5_0 = vector.fma %xv5, %wv0, %q5_0 : vector<16xf32>

                  %s5_1 = vector.fma %xv5, %wv1, %q5_1 : vector<16xf32>

                  %ix6 = arith.addi %iwk, %rs6 : index
                  %xq6 = vector.load %x[%img, %ih, %ix6, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd6 = vector.bitcast %xq6 : vector<1xf32> to vector<1xi32>
                  %xs6 = vector.extract %xd6[0] : i32 from vector<1xi32>
                  %xb6 = vector.broadcast %xs6 : i32 to vector<16xi32>
                  %xv6 = vector.bitcast %xb6 : vector<16xi32> to vector<16xf32>
                  %s6_0 = vector.fma %xv6, %wv0, %q6_0 : vector<16xf32>

                  %s6_1 = vector.fma %xv6, %wv1, %q6_1 : vector<16xf32>

                  %ix7 = arith.addi %iwk, %rs7 : index
                  %xq7 = vector.load %x[%img, %ih, %ix7, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd7 = vector.bitcast %xq7 : vector<1xf32> to vector<1xi32>
                  %xs7 = vector.extract %xd7[0] : i32 from vector<1xi32>
                  %xb7 = vector.broadcast %xs7 : i32 to vector<16xi32>
                  %xv7 = vector.bitcast %xb7 : vector<16xi32> to vector<16xf32>
                  %s7_0 = vector.fma %xv7, %wv0, %q7_0 : vector<16xf32>

                  %s7_1 = vector.fma %xv7, %wv1, %q7_1 : vector<16xf32>

                  %ix8 = arith.addi %iwk, %rs8 : index
                  %xq8 = vector.load %x[%img, %ih, %ix8, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd8 = vector.bitcast %xq8 : vector<1xf32> to vector<1xi32>
                  %xs8 = vector.extract %xd8[0] : i32 from vector<1xi32>
                  %xb8 = vector.broadcast %xs8 : i32 to vector<16xi32>
                  %xv8 = vector.bitcast %xb8 : vector<16xi32> to vector<16xf32>
                  %s8_0 = vector.fma %xv8, %wv0, %q8_0 : vector<16xf32>

                  %s8_1 = vector.fma %xv8, %wv1, %q8_1 : vector<16xf32>

                  %ix9 = arith.addi %iwk, %rs9 : index
                  %xq9 = vector.load %x[%img, %ih, %ix9, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd9 = vector.bitcast %xq9 : vector<1xf32> to vector<1xi32>
                  %xs9 = vector.extract %xd9[0] : i32 from vector<1xi32>
                  %xb9 = vector.broadcast %xs9 : i32 to vector<16xi32>
                  %xv9 = vector.bitcast %xb9 : vector<16xi32> to vector<16xf32>
                  %s9_0 = vector.fma %xv9, %wv0, %q9_0 : vector<16xf32>

                  %s9_1 = vector.fma %xv9, %wv1, %q9_1 : vector<16xf32>

                  %ix10 = arith.addi %iwk, %rs10 : index
                  %xq10 = vector.load %x[%img, %ih, %ix10, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd10 = vector.bitcast %xq10 : vector<1xf32> to vector<1xi32>
                  %xs10 = vector.extract %xd10[0] : i32 from vector<1xi32>
                  %xb10 = vector.broadcast %xs10 : i32 to vector<16xi32>
                  %xv10 = vector.bitcast %xb10 : vector<16xi32> to vector<16xf32>
                  %s10_0 = vector.fma %xv10, %wv0, %q10_0 : vector<16xf32>

                  %s10_1 = vector.fma %xv10, %wv1, %q10_1 : vector<16xf32>

                  %ix11 = arith.addi %iwk, %rs11 : index
                  %xq11 = vector.load %x[%img, %ih, %ix11, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd11 = vector.bitcast %xq11 : vector<1xf32> to vector<1xi32>
                  %xs11 = vector.extract %xd11[0] : i32 from vector<1xi32>
                  %xb11 = vector.broadcast %xs11 : i32 to vector<16xi32>
                  %xv11 = vector.bitcast %xb11 : vector<16xi32> to vector<16xf32>
                  %s11_0 = vector.fma %xv11, %wv0, %q11_0 : vector<16xf32>

                  %s11_1 = vector.fma %xv11, %wv1, %q11_1 : vector<16xf32>

                  %ix12 = arith.addi %iwk, %rs12 : index
                  %xq12 = vector.load %x[%img, %ih, %ix12, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd12 = vector.bitcast %xq12 : vector<1xf32> to vector<1xi32>
                  %xs12 = vector.extract %xd12[0] : i32 from vector<1xi32>
                  %xb12 = vector.broadcast %xs12 : i32 to vector<16xi32>
                  %xv12 = vector.bitcast %xb12 : vector<16xi32> to vector<16xf32>
                  %s12_0 = vector.fma %xv12, %wv0, %q12_0 : vector<16xf32>

                  %s12_1 = vector.fma %xv12, %wv1, %q12_1 : vector<16xf32>

                  %ix13 = arith.addi %iwk, %rs13 : index
                  %xq13 = vector.load %x[%img, %ih, %ix13, %ic] : memref<1x1x196x512xf32>, vector<1xf32>
                  %xd13 = vector.bitcast %xq13 : vector<1xf32> to vector<1xi32>
                  %xs13 = vector.extract %xd13[0] : i32 from vector<1xi32>
                  %xb13 = vector.broadcast %xs13 : i32 to vector<16xi32>
                  %xv13 = vector.bitcast %xb13 : vector<16xi32> to vector<16xf32>
                  %s13_0 = vector.fma %xv13, %wv0, %q13_0 : vector<16xf32>

                  %s13_1 = vector.fma %xv13, %wv1, %q13_1 : vector<16xf32>

                  scf.yield %s0_0, %s0_1, %s1_0, %s1_1, %s2_0, %s2_1, %s3_0, %s3_1, %s4_0, %s4_1, %s5_0, %s5_1, %s6_0, %s6_1, %s7_0, %s7_1, %s8_0, %s8_1, %s9_0, %s9_1, %s10_0, %s10_1, %s11_0, %s11_1, %s12_0, %s12_1, %s13_0, %s13_1 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
                }
                scf.yield %q#0, %q#1, %q#2, %q#3, %q#4, %q#5, %q#6, %q#7, %q#8, %q#9, %q#10, %q#11, %q#12, %q#13, %q#14, %q#15, %q#16, %q#17, %q#18, %q#19, %q#20, %q#21, %q#22, %q#23, %q#24, %q#25, %q#26, %q#27 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
              }
              scf.yield %t#0, %t#1, %t#2, %t#3, %t#4, %t#5, %t#6, %t#7, %t#8, %t#9, %t#10, %t#11, %t#12, %t#13, %t#14, %t#15, %t#16, %t#17, %t#18, %t#19, %t#20, %t#21, %t#22, %t#23, %t#24, %t#25, %t#26, %t#27 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
            }
            %owr0 = arith.addi %ow0, %r0 : index
            vector.store %h#0, %y[%z, %oh, %owr0, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#1, %y[%z, %oh, %owr0, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr1 = arith.addi %ow0, %r1 : index
            vector.store %h#2, %y[%z, %oh, %owr1, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#3, %y[%z, %oh, %owr1, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr2 = arith.addi %ow0, %r2 : index
            vector.store %h#4, %y[%z, %oh, %owr2, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#5, %y[%z, %oh, %owr2, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr3 = arith.addi %ow0, %r3 : index
            vector.store %h#6, %y[%z, %oh, %owr3, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#7, %y[%z, %oh, %owr3, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr4 = arith.addi %ow0, %r4 : index
            vector.store %h#8, %y[%z, %oh, %owr4, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#9, %y[%z, %oh, %owr4, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr5 = arith.addi %ow0, %r5 : index
            vector.store %h#10, %y[%z, %oh, %owr5, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#11, %y[%z, %oh, %owr5, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr6 = arith.addi %ow0, %r6 : index
            vector.store %h#12, %y[%z, %oh, %owr6, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#13, %y[%z, %oh, %owr6, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr7 = arith.addi %ow0, %r7 : index
            vector.store %h#14, %y[%z, %oh, %owr7, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#15, %y[%z, %oh, %owr7, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr8 = arith.addi %ow0, %r8 : index
            vector.store %h#16, %y[%z, %oh, %owr8, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#17, %y[%z, %oh, %owr8, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr9 = arith.addi %ow0, %r9 : index
            vector.store %h#18, %y[%z, %oh, %owr9, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#19, %y[%z, %oh, %owr9, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr10 = arith.addi %ow0, %r10 : index
            vector.store %h#20, %y[%z, %oh, %owr10, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#21, %y[%z, %oh, %owr10, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr11 = arith.addi %ow0, %r11 : index
            vector.store %h#22, %y[%z, %oh, %owr11, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#23, %y[%z, %oh, %owr11, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr12 = arith.addi %ow0, %r12 : index
            vector.store %h#24, %y[%z, %oh, %owr12, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#25, %y[%z, %oh, %owr12, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>

            %owr13 = arith.addi %ow0, %r13 : index
            vector.store %h#26, %y[%z, %oh, %owr13, %ocv0] : memref<1x1x196x512xf32>, vector<16xf32>

            vector.store %h#27, %y[%z, %oh, %owr13, %ocv1] : memref<1x1x196x512xf32>, vector<16xf32>


          }
        }

        return
      }
    }
}
stream.executable private @v20_wino_output {
    stream.executable.export public @v20_wino_output workgroups() -> (index, index, index) {
      %x = arith.constant 14 : index
      %y = arith.constant 1 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @v20_wino_output(%src_binding: !stream.binding, %bias_binding: !stream.binding, %dst_binding: !stream.binding, %row0: index) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        %cm = arith.constant 2 : index
        %tw_n = arith.constant 14 : index
        %ch_n = arith.constant 32 : index
        %src = stream.binding.subspan %src_binding[%c0] : !stream.binding -> memref<1x14x14x512xf32>
        %dst = stream.binding.subspan %dst_binding[%c0] : !stream.binding -> memref<1x2x28x28x16xf32>
        %bias = stream.binding.subspan %bias_binding[%c0] : !stream.binding -> memref<32xf32>
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %i2 = arith.constant 2 : index
        %i3 = arith.constant 3 : index
        %pos0 = arith.constant 0 : index
        %pos1 = arith.constant 32 : index
        %pos2 = arith.constant 64 : index
        %pos3 = arith.constant 96 : index
        %pos4 = arith.constant 128 : index
        %pos5 = arith.constant 160 : index
        %pos6 = arith.constant 192 : index
        %pos7 = arith.constant 224 : index
        %pos8 = arith.constant 256 : index
        %pos9 = arith.constant 288 : index
        %pos10 = arith.constant 320 : index
        %pos11 = arith.constant 352 : index
        %pos12 = arith.constant 384 : index
        %pos13 = arith.constant 416 : index
        %pos14 = arith.constant 448 : index
        %pos15 = arith.constant 480 : index
        %band_row = hal.interface.workgroup.id[0] : index
        %flat_row = arith.addi %row0, %band_row : index
        %th_n = arith.constant 14 : index
        %th = arith.remui %flat_row, %th_n : index
        %n = arith.divui %flat_row, %th_n : index
        %hb = arith.muli %th, %cm : index
        %h0 = arith.addi %hb, %i0 : index
        %h1 = arith.addi %hb, %i1 : index
        scf.for %tw = %c0 to %tw_n step %c1 {
          %wb = arith.muli %tw, %cm : index
          %w0 = arith.addi %wb, %i0 : index
          %w1 = arith.addi %wb, %i1 : index
          scf.for %c = %c0 to %ch_n step %c16 {
            %cb = arith.divui %c, %c16 : index
            %ld0_0_at = arith.addi %c, %pos0 : index
            %ld0_0 = vector.load %src[%c0, %band_row, %tw, %ld0_0_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld0_1_at = arith.addi %c, %pos1 : index
            %ld0_1 = vector.load %src[%c0, %band_row, %tw, %ld0_1_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld0_2_at = arith.addi %c, %pos2 : index
            %ld0_2 = vector.load %src[%c0, %band_row, %tw, %ld0_2_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld0_3_at = arith.addi %c, %pos3 : index
            %ld0_3 = vector.load %src[%c0, %band_row, %tw, %ld0_3_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld1_0_at = arith.addi %c, %pos4 : index
            %ld1_0 = vector.load %src[%c0, %band_row, %tw, %ld1_0_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld1_1_at = arith.addi %c, %pos5 : index
            %ld1_1 = vector.load %src[%c0, %band_row, %tw, %ld1_1_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld1_2_at = arith.addi %c, %pos6 : index
            %ld1_2 = vector.load %src[%c0, %band_row, %tw, %ld1_2_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld1_3_at = arith.addi %c, %pos7 : index
            %ld1_3 = vector.load %src[%c0, %band_row, %tw, %ld1_3_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld2_0_at = arith.addi %c, %pos8 : index
            %ld2_0 = vector.load %src[%c0, %band_row, %tw, %ld2_0_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld2_1_at = arith.addi %c, %pos9 : index
            %ld2_1 = vector.load %src[%c0, %band_row, %tw, %ld2_1_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld2_2_at = arith.addi %c, %pos10 : index
            %ld2_2 = vector.load %src[%c0, %band_row, %tw, %ld2_2_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld2_3_at = arith.addi %c, %pos11 : index
            %ld2_3 = vector.load %src[%c0, %band_row, %tw, %ld2_3_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld3_0_at = arith.addi %c, %pos12 : index
            %ld3_0 = vector.load %src[%c0, %band_row, %tw, %ld3_0_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld3_1_at = arith.addi %c, %pos13 : index
            %ld3_1 = vector.load %src[%c0, %band_row, %tw, %ld3_1_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld3_2_at = arith.addi %c, %pos14 : index
            %ld3_2 = vector.load %src[%c0, %band_row, %tw, %ld3_2_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %ld3_3_at = arith.addi %c, %pos15 : index
            %ld3_3 = vector.load %src[%c0, %band_row, %tw, %ld3_3_at] : memref<1x14x14x512xf32>, vector<16xf32>
            %tr0_0_1 = arith.addf %ld0_0, %ld1_0 : vector<16xf32>
            %tr0_0 = arith.addf %tr0_0_1, %ld2_0 : vector<16xf32>
            %tr0_1_1 = arith.addf %ld0_1, %ld1_1 : vector<16xf32>
            %tr0_1 = arith.addf %tr0_1_1, %ld2_1 : vector<16xf32>
            %tr0_2_1 = arith.addf %ld0_2, %ld1_2 : vector<16xf32>
            %tr0_2 = arith.addf %tr0_2_1, %ld2_2 : vector<16xf32>
            %tr0_3_1 = arith.addf %ld0_3, %ld1_3 : vector<16xf32>
            %tr0_3 = arith.addf %tr0_3_1, %ld2_3 : vector<16xf32>
            %tr1_0_1 = arith.subf %ld1_0, %ld2_0 : vector<16xf32>
            %tr1_0 = arith.subf %tr1_0_1, %ld3_0 : vector<16xf32>
            %tr1_1_1 = arith.subf %ld1_1, %ld2_1 : vector<16xf32>
            %tr1_1 = arith.subf %tr1_1_1, %ld3_1 : vector<16xf32>
            %tr1_2_1 = arith.subf %ld1_2, %ld2_2 : vector<16xf32>
            %tr1_2 = arith.subf %tr1_2_1, %ld3_2 : vector<16xf32>
            %tr1_3_1 = arith.subf %ld1_3, %ld2_3 : vector<16xf32>
            %tr1_3 = arith.subf %tr1_3_1, %ld3_3 : vector<16xf32>
            %out0_0_1 = arith.addf %tr0_0, %tr0_1 : vector<16xf32>
            %out0_0 = arith.addf %out0_0_1, %tr0_2 : vector<16xf32>
            %out0_1_1 = arith.subf %tr0_1, %tr0_2 : vector<16xf32>
            %out0_1 = arith.subf %out0_1_1, %tr0_3 : vector<16xf32>
            %out1_0_1 = arith.addf %tr1_0, %tr1_1 : vector<16xf32>
            %out1_0 = arith.addf %out1_0_1, %tr1_2 : vector<16xf32>
            %out1_1_1 = arith.subf %tr1_1, %tr1_2 : vector<16xf32>
            %out1_1 = arith.subf %out1_1_1, %tr1_3 : vector<16xf32>

            %bias_v = vector.load %bias[%c] : memref<32xf32>, vector<16xf32>
            %ep0_0_b = arith.addf %out0_0, %bias_v : vector<16xf32>
            vector.store %ep0_0_b, %dst[%n, %cb, %h0, %w0, %c0] : memref<1x2x28x28x16xf32>, vector<16xf32>
            %ep0_1_b = arith.addf %out0_1, %bias_v : vector<16xf32>
            vector.store %ep0_1_b, %dst[%n, %cb, %h0, %w1, %c0] : memref<1x2x28x28x16xf32>, vector<16xf32>
            %ep1_0_b = arith.addf %out1_0, %bias_v : vector<16xf32>
            vector.store %ep1_0_b, %dst[%n, %cb, %h1, %w0, %c0] : memref<1x2x28x28x16xf32>, vector<16xf32>
            %ep1_1_b = arith.addf %out1_1, %bias_v : vector<16xf32>
            vector.store %ep1_1_b, %dst[%n, %cb, %h1, %w1, %c0] : memref<1x2x28x28x16xf32>, vector<16xf32>
          }
        }
        return
      }
    }
}
func.func @conv_winograd_f2__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_abcd__f32_aBcd16b__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [17, 17, 3, 3] : !wei_buf into tensor<17x17x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 17, 17, 3, 3] : tensor<17x17x3x3xf32> into tensor<1x17x17x3x3xf32>

    %w3 = arith.constant dense<"0x0000803F00000000000000000000003F0000003F0000003F0000003F000000BF0000003F00000000000000000000803F"> : tensor<4x3xf32>
    %w4_z = arith.constant 0.0 : f32
    %w4_e = tensor.empty() : tensor<4x1x17x17x3xf32>
    %w4_acc = linalg.fill ins(%w4_z : f32) outs(%w4_e : tensor<4x1x17x17x3xf32>) -> tensor<4x1x17x17x3xf32>
    %w4 = linalg.generic {indexing_maps = [affine_map<(a, g, oc, ic, j, i) -> (a, i)>, affine_map<(a, g, oc, ic, j, i) -> (g, oc, ic, i, j)>, affine_map<(a, g, oc, ic, j, i) -> (a, g, oc, ic, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w2 : tensor<4x3xf32>, tensor<1x17x17x3x3xf32>) outs(%w4_acc : tensor<4x1x17x17x3xf32>) {
    ^bb0(%w4_c: f32, %w4_x: f32, %w4_a: f32):
      %w4_m = arith.mulf %w4_c, %w4_x : f32
      %w4_s = arith.addf %w4_a, %w4_m : f32
      linalg.yield %w4_s : f32
    } -> tensor<4x1x17x17x3xf32>
    %w5_z = arith.constant 0.0 : f32
    %w5_e = tensor.empty() : tensor<4x4x1x17x17xf32>
    %w5_acc = linalg.fill ins(%w5_z : f32) outs(%w5_e : tensor<4x4x1x17x17xf32>) -> tensor<4x4x1x17x17xf32>
    %w5 = linalg.generic {indexing_maps = [affine_map<(a, b, g, oc, ic, j) -> (b, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, g, oc, ic, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, b, g, oc, ic)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w4 : tensor<4x3xf32>, tensor<4x1x17x17x3xf32>) outs(%w5_acc : tensor<4x4x1x17x17xf32>) {
    ^bb0(%w5_c: f32, %w5_x: f32, %w5_a: f32):
      %w5_m = arith.mulf %w5_c, %w5_x : f32
      %w5_s = arith.addf %w5_a, %w5_m : f32
      linalg.yield %w5_s : f32
    } -> tensor<4x4x1x17x17xf32>
    %w6_z = arith.constant 0.0 : f32
    %w6 = tensor.pad %w5 low[0, 0, 0, 0, 0] high[0, 0, 0, 0, 15] {
    ^bb0(%w6_i0: index, %w6_i1: index, %w6_i2: index, %w6_i3: index, %w6_i4: index):
      tensor.yield %w6_z : f32
    } : tensor<4x4x1x17x17xf32> to tensor<4x4x1x17x32xf32>

    %w7 = tensor.collapse_shape %w6 [[0, 1, 2], [3], [4]] : tensor<4x4x1x17x32xf32> into tensor<16x17x32xf32>

    %w8 = tensor.expand_shape %w7 [[0], [1], [2, 3, 4]] output_shape [16, 17, 32, 1, 1] : tensor<16x17x32xf32> into tensor<16x17x32x1x1xf32>

    %w9_z = arith.constant 0.0 : f32
    %w9 = tensor.pad %w8 low[0, 0, 0, 0, 0] high[0, 15, 0, 0, 0] {
    ^bb0(%w9_i0: index, %w9_i1: index, %w9_i2: index, %w9_i3: index, %w9_i4: index):
      tensor.yield %w9_z : f32
    } : tensor<16x17x32x1x1xf32> to tensor<16x32x32x1x1xf32>

    %w10 = tensor.expand_shape %w9 [[0], [1, 2, 3], [4, 5], [6], [7]] output_shape [16, 1, 2, 16, 32, 1, 1, 1] : tensor<16x32x32x1x1xf32> into tensor<16x1x2x16x32x1x1x1xf32>

    %w11_e = tensor.empty() : tensor<16x1x1x1x32x2x16x1xf32>
    %w11 = linalg.transpose ins(%w10 : tensor<16x1x2x16x32x1x1x1xf32>) outs(%w11_e : tensor<16x1x1x1x32x2x16x1xf32>) permutation = [0, 1, 6, 7, 4, 2, 3, 5]

    %w12 = tensor.collapse_shape %w11 [[0, 1], [2], [3], [4], [5], [6, 7]] : tensor<16x1x1x1x32x2x16x1xf32> into !wei_prepared

    return %w12 : !wei_prepared
}

func.func @conv_winograd_f2__mb1ic17ih28oc17oh28kh3ph1__f32_aBcd16b__f32_abcd__f32_aBcd16b__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3, 4]] output_shape [1, 2, 28, 28, 16] : !src_dst_buf into tensor<1x2x28x28x16xf32>

    %v2_e = tensor.empty() : tensor<1x28x28x17xf32>
    %v2 = linalg.unpack %v1 outer_dims_perm = [0, 3, 1, 2] inner_dims_pos = [3] inner_tiles = [16] into %v2_e : tensor<1x2x28x28x16xf32> -> tensor<1x28x28x17xf32>

    %v3 = tensor.expand_shape %v2 [[0], [1], [2], [3, 4]] output_shape [1, 28, 28, 1, 17] : tensor<1x28x28x17xf32> into tensor<1x28x28x1x17xf32>

    %v4_z = arith.constant 0.0 : f32
    %v4 = tensor.pad %v3 low[0, 1, 1, 0, 0] high[0, 1, 1, 0, 0] {
    ^bb0(%v4_i0: index, %v4_i1: index, %v4_i2: index, %v4_i3: index, %v4_i4: index):
      tensor.yield %v4_z : f32
    } : tensor<1x28x28x1x17xf32> to tensor<1x30x30x1x17xf32>

    %v5_z = arith.constant 0.0 : f32
    %v5 = tensor.pad %v4 low[0, 0, 0, 0, 0] high[0, 0, 0, 0, 15] {
    ^bb0(%v5_i0: index, %v5_i1: index, %v5_i2: index, %v5_i3: index, %v5_i4: index):
      tensor.yield %v5_z : f32
    } : tensor<1x30x30x1x17xf32> to tensor<1x30x30x1x32xf32>

    %v6 = tensor.collapse_shape %v5 [[0], [1], [2], [3, 4]] : tensor<1x30x30x1x32xf32> into tensor<1x30x30x32xf32>

    %v7 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 17] : !bias into tensor<1x17xf32>

    %v8_z = arith.constant 0.0 : f32
    %v8 = tensor.pad %v7 low[0, 0] high[0, 15] {
    ^bb0(%v8_i0: index, %v8_i1: index):
      tensor.yield %v8_z : f32
    } : tensor<1x17xf32> to tensor<1x32xf32>

    %v9 = tensor.collapse_shape %v8 [[0, 1]] : tensor<1x32xf32> into tensor<32xf32>

    %v10_row0 = arith.constant 0 : index
    %v10 = flow.dispatch @v10_wino_input::@v10_wino_input(%v6, %v10_row0) : (tensor<1x30x30x32xf32>, index) -> tensor<1x14x14x512xf32>
    %v11 = tensor.collapse_shape %v10 [[0], [1, 2], [3]] : tensor<1x14x14x512xf32> into tensor<1x196x512xf32>

    %v12 = tensor.expand_shape %v11 [[0], [1, 2], [3, 4]] output_shape [1, 1, 196, 16, 32] : tensor<1x196x512xf32> into tensor<1x1x196x16x32xf32>

    %v13 = tensor.collapse_shape %v12 [[0], [1], [2], [3, 4]] : tensor<1x1x196x16x32xf32> into tensor<1x1x196x512xf32>

    %v14 = flow.dispatch @v14_brgemm::@v14_brgemm(%v13, %w) : (tensor<1x1x196x512xf32>, !wei_prepared) -> tensor<1x1x196x512xf32>
    %v15 = tensor.expand_shape %v14 [[0], [1], [2], [3, 4]] output_shape [1, 1, 196, 16, 32] : tensor<1x1x196x512xf32> into tensor<1x1x196x16x32xf32>

    %v16 = tensor.extract_slice %v15[0, 0, 0, 0, 0] [1, 1, 196, 16, 17] [1, 1, 1, 1, 1] : tensor<1x1x196x16x32xf32> to tensor<1x1x196x16x17xf32>

    %v17_z = arith.constant 0.0 : f32
    %v17 = tensor.pad %v16 low[0, 0, 0, 0, 0] high[0, 0, 0, 0, 15] {
    ^bb0(%v17_i0: index, %v17_i1: index, %v17_i2: index, %v17_i3: index, %v17_i4: index):
      tensor.yield %v17_z : f32
    } : tensor<1x1x196x16x17xf32> to tensor<1x1x196x16x32xf32>

    %v18 = tensor.collapse_shape %v17 [[0], [1, 2], [3, 4]] : tensor<1x1x196x16x32xf32> into tensor<1x196x512xf32>

    %v19 = tensor.expand_shape %v18 [[0], [1, 2], [3]] output_shape [1, 14, 14, 512] : tensor<1x196x512xf32> into tensor<1x14x14x512xf32>

    %v20_row0 = arith.constant 0 : index
    %v20 = flow.dispatch @v20_wino_output::@v20_wino_output(%v19, %v9, %v20_row0) : (tensor<1x14x14x512xf32>, tensor<32xf32>, index) -> tensor<1x2x28x28x16xf32>
    %v21 = tensor.collapse_shape %v20 [[0, 1, 2, 3, 4]] : tensor<1x2x28x28x16xf32> into !src_dst_buf

    return %v21 : !src_dst_buf
}
