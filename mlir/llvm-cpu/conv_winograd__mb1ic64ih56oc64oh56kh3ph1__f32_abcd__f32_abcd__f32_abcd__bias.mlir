// Auto-generated file. Do not edit!
//   Template: conv.mlir.j2
//   Generator: kgen 0.1.0
!src_dst_buf = tensor<200704xf32>
!wei_buf = tensor<36864xf32>
!wei_prepared = tensor<36x1x1x64x4x16xf32>
!bias = tensor<64xf32>

stream.executable private @v7_wino_input {
    stream.executable.export public @v7_wino_input workgroups() -> (index, index, index) {
      %x = arith.constant 7 : index
      %y = arith.constant 1 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @v7_wino_input(%src_binding: !stream.binding, %after_binding: !stream.binding, %dst_binding: !stream.binding, %row0: index) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        %cm = arith.constant 4 : index
        %tw_n = arith.constant 14 : index
        %ch_n = arith.constant 64 : index
        %src = stream.binding.subspan %src_binding[%c0] : !stream.binding -> memref<1x56x56x64xf32>
        %dst = stream.binding.subspan %dst_binding[%c0] : !stream.binding -> memref<1x7x14x2304xf32>
        %k0 = arith.constant dense<4.000000000e+00> : vector<16xf32>
        %k1 = arith.constant dense<-5.000000000e+00> : vector<16xf32>
        %k2 = arith.constant dense<-4.000000000e+00> : vector<16xf32>
        %k3 = arith.constant dense<-2.000000000e+00> : vector<16xf32>
        %k4 = arith.constant dense<2.000000000e+00> : vector<16xf32>
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %i2 = arith.constant 2 : index
        %i3 = arith.constant 3 : index
        %i4 = arith.constant 4 : index
        %i5 = arith.constant 5 : index
        %pos0 = arith.constant 0 : index
        %pos1 = arith.constant 64 : index
        %pos2 = arith.constant 128 : index
        %pos3 = arith.constant 192 : index
        %pos4 = arith.constant 256 : index
        %pos5 = arith.constant 320 : index
        %pos6 = arith.constant 384 : index
        %pos7 = arith.constant 448 : index
        %pos8 = arith.constant 512 : index
        %pos9 = arith.constant 576 : index
        %pos10 = arith.constant 640 : index
        %pos11 = arith.constant 704 : index
        %pos12 = arith.constant 768 : index
        %pos13 = arith.constant 832 : index
        %pos14 = arith.constant 896 : index
        %pos15 = arith.constant 960 : index
        %pos16 = arith.constant 1024 : index
        %pos17 = arith.constant 1088 : index
        %pos18 = arith.constant 1152 : index
        %pos19 = arith.constant 1216 : index
        %pos20 = arith.constant 1280 : index
        %pos21 = arith.constant 1344 : index
        %pos22 = arith.constant 1408 : index
        %pos23 = arith.constant 1472 : index
        %pos24 = arith.constant 1536 : index
        %pos25 = arith.constant 1600 : index
        %pos26 = arith.constant 1664 : index
        %pos27 = arith.constant 1728 : index
        %pos28 = arith.constant 1792 : index
        %pos29 = arith.constant 1856 : index
        %pos30 = arith.constant 1920 : index
        %pos31 = arith.constant 1984 : index
        %pos32 = arith.constant 2048 : index
        %pos33 = arith.constant 2112 : index
        %pos34 = arith.constant 2176 : index
        %pos35 = arith.constant 2240 : index
        %band_row = hal.interface.workgroup.id[0] : index
        %flat_row = arith.addi %row0, %band_row : index
        %th_n = arith.constant 14 : index
        %th = arith.remui %flat_row, %th_n : index
        %n = arith.divui %flat_row, %th_n : index
        %hb = arith.muli %th, %cm : index
        %top = arith.constant 1 : index
        %left = arith.constant 1 : index
        %rows_n = arith.constant 56 : index
        %cols_n = arith.constant 56 : index
        %row_last = arith.constant 55 : index
        %col_last = arith.constant 55 : index
        %zero_v = arith.constant dense<0.0> : vector<16xf32>
        %hq0 = arith.addi %hb, %i0 : index
        %hs0 = arith.subi %hq0, %top : index
        %hlo0 = arith.cmpi sge, %hs0, %c0 : index
        %hhi0 = arith.cmpi slt, %hs0, %rows_n : index
        %hok0 = arith.andi %hlo0, %hhi0 : i1
        %hmin0 = arith.minsi %hs0, %row_last : index
        %h0 = arith.maxsi %hmin0, %c0 : index
        %hq1 = arith.addi %hb, %i1 : index
        %hs1 = arith.subi %hq1, %top : index
        %hlo1 = arith.cmpi sge, %hs1, %c0 : index
        %hhi1 = arith.cmpi slt, %hs1, %rows_n : index
        %hok1 = arith.andi %hlo1, %hhi1 : i1
        %hmin1 = arith.minsi %hs1, %row_last : index
        %h1 = arith.maxsi %hmin1, %c0 : index
        %hq2 = arith.addi %hb, %i2 : index
        %hs2 = arith.subi %hq2, %top : index
        %hlo2 = arith.cmpi sge, %hs2, %c0 : index
        %hhi2 = arith.cmpi slt, %hs2, %rows_n : index
        %hok2 = arith.andi %hlo2, %hhi2 : i1
        %hmin2 = arith.minsi %hs2, %row_last : index
        %h2 = arith.maxsi %hmin2, %c0 : index
        %hq3 = arith.addi %hb, %i3 : index
        %hs3 = arith.subi %hq3, %top : index
        %hlo3 = arith.cmpi sge, %hs3, %c0 : index
        %hhi3 = arith.cmpi slt, %hs3, %rows_n : index
        %hok3 = arith.andi %hlo3, %hhi3 : i1
        %hmin3 = arith.minsi %hs3, %row_last : index
        %h3 = arith.maxsi %hmin3, %c0 : index
        %hq4 = arith.addi %hb, %i4 : index
        %hs4 = arith.subi %hq4, %top : index
        %hlo4 = arith.cmpi sge, %hs4, %c0 : index
        %hhi4 = arith.cmpi slt, %hs4, %rows_n : index
        %hok4 = arith.andi %hlo4, %hhi4 : i1
        %hmin4 = arith.minsi %hs4, %row_last : index
        %h4 = arith.maxsi %hmin4, %c0 : index
        %hq5 = arith.addi %hb, %i5 : index
        %hs5 = arith.subi %hq5, %top : index
        %hlo5 = arith.cmpi sge, %hs5, %c0 : index
        %hhi5 = arith.cmpi slt, %hs5, %rows_n : index
        %hok5 = arith.andi %hlo5, %hhi5 : i1
        %hmin5 = arith.minsi %hs5, %row_last : index
        %h5 = arith.maxsi %hmin5, %c0 : index
        scf.for %tw = %c0 to %tw_n step %c1 {
          %wb = arith.muli %tw, %cm : index
          %wq0 = arith.addi %wb, %i0 : index
          %ws0 = arith.subi %wq0, %left : index
          %wlo0 = arith.cmpi sge, %ws0, %c0 : index
          %whi0 = arith.cmpi slt, %ws0, %cols_n : index
          %wok0 = arith.andi %wlo0, %whi0 : i1
          %wmin0 = arith.minsi %ws0, %col_last : index
          %w0 = arith.maxsi %wmin0, %c0 : index
          %wq1 = arith.addi %wb, %i1 : index
          %ws1 = arith.subi %wq1, %left : index
          %wlo1 = arith.cmpi sge, %ws1, %c0 : index
          %whi1 = arith.cmpi slt, %ws1, %cols_n : index
          %wok1 = arith.andi %wlo1, %whi1 : i1
          %wmin1 = arith.minsi %ws1, %col_last : index
          %w1 = arith.maxsi %wmin1, %c0 : index
          %wq2 = arith.addi %wb, %i2 : index
          %ws2 = arith.subi %wq2, %left : index
          %wlo2 = arith.cmpi sge, %ws2, %c0 : index
          %whi2 = arith.cmpi slt, %ws2, %cols_n : index
          %wok2 = arith.andi %wlo2, %whi2 : i1
          %wmin2 = arith.minsi %ws2, %col_last : index
          %w2 = arith.maxsi %wmin2, %c0 : index
          %wq3 = arith.addi %wb, %i3 : index
          %ws3 = arith.subi %wq3, %left : index
          %wlo3 = arith.cmpi sge, %ws3, %c0 : index
          %whi3 = arith.cmpi slt, %ws3, %cols_n : index
          %wok3 = arith.andi %wlo3, %whi3 : i1
          %wmin3 = arith.minsi %ws3, %col_last : index
          %w3 = arith.maxsi %wmin3, %c0 : index
          %wq4 = arith.addi %wb, %i4 : index
          %ws4 = arith.subi %wq4, %left : index
          %wlo4 = arith.cmpi sge, %ws4, %c0 : index
          %whi4 = arith.cmpi slt, %ws4, %cols_n : index
          %wok4 = arith.andi %wlo4, %whi4 : i1
          %wmin4 = arith.minsi %ws4, %col_last : index
          %w4 = arith.maxsi %wmin4, %c0 : index
          %wq5 = arith.addi %wb, %i5 : index
          %ws5 = arith.subi %wq5, %left : index
          %wlo5 = arith.cmpi sge, %ws5, %c0 : index
          %whi5 = arith.cmpi slt, %ws5, %cols_n : index
          %wok5 = arith.andi %wlo5, %whi5 : i1
          %wmin5 = arith.minsi %ws5, %col_last : index
          %w5 = arith.maxsi %wmin5, %c0 : index
          %ld0_0_ok = arith.andi %hok0, %wok0 : i1
          %ld0_0_mask = vector.broadcast %ld0_0_ok : i1 to vector<16xi1>
          %ld0_1_ok = arith.andi %hok0, %wok1 : i1
          %ld0_1_mask = vector.broadcast %ld0_1_ok : i1 to vector<16xi1>
          %ld0_2_ok = arith.andi %hok0, %wok2 : i1
          %ld0_2_mask = vector.broadcast %ld0_2_ok : i1 to vector<16xi1>
          %ld0_3_ok = arith.andi %hok0, %wok3 : i1
          %ld0_3_mask = vector.broadcast %ld0_3_ok : i1 to vector<16xi1>
          %ld0_4_ok = arith.andi %hok0, %wok4 : i1
          %ld0_4_mask = vector.broadcast %ld0_4_ok : i1 to vector<16xi1>
          %ld0_5_ok = arith.andi %hok0, %wok5 : i1
          %ld0_5_mask = vector.broadcast %ld0_5_ok : i1 to vector<16xi1>
          %ld1_0_ok = arith.andi %hok1, %wok0 : i1
          %ld1_0_mask = vector.broadcast %ld1_0_ok : i1 to vector<16xi1>
          %ld1_1_ok = arith.andi %hok1, %wok1 : i1
          %ld1_1_mask = vector.broadcast %ld1_1_ok : i1 to vector<16xi1>
          %ld1_2_ok = arith.andi %hok1, %wok2 : i1
          %ld1_2_mask = vector.broadcast %ld1_2_ok : i1 to vector<16xi1>
          %ld1_3_ok = arith.andi %hok1, %wok3 : i1
          %ld1_3_mask = vector.broadcast %ld1_3_ok : i1 to vector<16xi1>
          %ld1_4_ok = arith.andi %hok1, %wok4 : i1
          %ld1_4_mask = vector.broadcast %ld1_4_ok : i1 to vector<16xi1>
          %ld1_5_ok = arith.andi %hok1, %wok5 : i1
          %ld1_5_mask = vector.broadcast %ld1_5_ok : i1 to vector<16xi1>
          %ld2_0_ok = arith.andi %hok2, %wok0 : i1
          %ld2_0_mask = vector.broadcast %ld2_0_ok : i1 to vector<16xi1>
          %ld2_1_ok = arith.andi %hok2, %wok1 : i1
          %ld2_1_mask = vector.broadcast %ld2_1_ok : i1 to vector<16xi1>
          %ld2_2_ok = arith.andi %hok2, %wok2 : i1
          %ld2_2_mask = vector.broadcast %ld2_2_ok : i1 to vector<16xi1>
          %ld2_3_ok = arith.andi %hok2, %wok3 : i1
          %ld2_3_mask = vector.broadcast %ld2_3_ok : i1 to vector<16xi1>
          %ld2_4_ok = arith.andi %hok2, %wok4 : i1
          %ld2_4_mask = vector.broadcast %ld2_4_ok : i1 to vector<16xi1>
          %ld2_5_ok = arith.andi %hok2, %wok5 : i1
          %ld2_5_mask = vector.broadcast %ld2_5_ok : i1 to vector<16xi1>
          %ld3_0_ok = arith.andi %hok3, %wok0 : i1
          %ld3_0_mask = vector.broadcast %ld3_0_ok : i1 to vector<16xi1>
          %ld3_1_ok = arith.andi %hok3, %wok1 : i1
          %ld3_1_mask = vector.broadcast %ld3_1_ok : i1 to vector<16xi1>
          %ld3_2_ok = arith.andi %hok3, %wok2 : i1
          %ld3_2_mask = vector.broadcast %ld3_2_ok : i1 to vector<16xi1>
          %ld3_3_ok = arith.andi %hok3, %wok3 : i1
          %ld3_3_mask = vector.broadcast %ld3_3_ok : i1 to vector<16xi1>
          %ld3_4_ok = arith.andi %hok3, %wok4 : i1
          %ld3_4_mask = vector.broadcast %ld3_4_ok : i1 to vector<16xi1>
          %ld3_5_ok = arith.andi %hok3, %wok5 : i1
          %ld3_5_mask = vector.broadcast %ld3_5_ok : i1 to vector<16xi1>
          %ld4_0_ok = arith.andi %hok4, %wok0 : i1
          %ld4_0_mask = vector.broadcast %ld4_0_ok : i1 to vector<16xi1>
          %ld4_1_ok = arith.andi %hok4, %wok1 : i1
          %ld4_1_mask = vector.broadcast %ld4_1_ok : i1 to vector<16xi1>
          %ld4_2_ok = arith.andi %hok4, %wok2 : i1
          %ld4_2_mask = vector.broadcast %ld4_2_ok : i1 to vector<16xi1>
          %ld4_3_ok = arith.andi %hok4, %wok3 : i1
          %ld4_3_mask = vector.broadcast %ld4_3_ok : i1 to vector<16xi1>
          %ld4_4_ok = arith.andi %hok4, %wok4 : i1
          %ld4_4_mask = vector.broadcast %ld4_4_ok : i1 to vector<16xi1>
          %ld4_5_ok = arith.andi %hok4, %wok5 : i1
          %ld4_5_mask = vector.broadcast %ld4_5_ok : i1 to vector<16xi1>
          %ld5_0_ok = arith.andi %hok5, %wok0 : i1
          %ld5_0_mask = vector.broadcast %ld5_0_ok : i1 to vector<16xi1>
          %ld5_1_ok = arith.andi %hok5, %wok1 : i1
          %ld5_1_mask = vector.broadcast %ld5_1_ok : i1 to vector<16xi1>
          %ld5_2_ok = arith.andi %hok5, %wok2 : i1
          %ld5_2_mask = vector.broadcast %ld5_2_ok : i1 to vector<16xi1>
          %ld5_3_ok = arith.andi %hok5, %wok3 : i1
          %ld5_3_mask = vector.broadcast %ld5_3_ok : i1 to vector<16xi1>
          %ld5_4_ok = arith.andi %hok5, %wok4 : i1
          %ld5_4_mask = vector.broadcast %ld5_4_ok : i1 to vector<16xi1>
          %ld5_5_ok = arith.andi %hok5, %wok5 : i1
          %ld5_5_mask = vector.broadcast %ld5_5_ok : i1 to vector<16xi1>
          scf.for %c = %c0 to %ch_n step %c16 {
            %ld0_0 = vector.maskedload %src[%n, %h0, %w0, %c], %ld0_0_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld0_1 = vector.maskedload %src[%n, %h0, %w1, %c], %ld0_1_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld0_2 = vector.maskedload %src[%n, %h0, %w2, %c], %ld0_2_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld0_3 = vector.maskedload %src[%n, %h0, %w3, %c], %ld0_3_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld0_4 = vector.maskedload %src[%n, %h0, %w4, %c], %ld0_4_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld0_5 = vector.maskedload %src[%n, %h0, %w5, %c], %ld0_5_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld1_0 = vector.maskedload %src[%n, %h1, %w0, %c], %ld1_0_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld1_1 = vector.maskedload %src[%n, %h1, %w1, %c], %ld1_1_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld1_2 = vector.maskedload %src[%n, %h1, %w2, %c], %ld1_2_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld1_3 = vector.maskedload %src[%n, %h1, %w3, %c], %ld1_3_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld1_4 = vector.maskedload %src[%n, %h1, %w4, %c], %ld1_4_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld1_5 = vector.maskedload %src[%n, %h1, %w5, %c], %ld1_5_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld2_0 = vector.maskedload %src[%n, %h2, %w0, %c], %ld2_0_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld2_1 = vector.maskedload %src[%n, %h2, %w1, %c], %ld2_1_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld2_2 = vector.maskedload %src[%n, %h2, %w2, %c], %ld2_2_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld2_3 = vector.maskedload %src[%n, %h2, %w3, %c], %ld2_3_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld2_4 = vector.maskedload %src[%n, %h2, %w4, %c], %ld2_4_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld2_5 = vector.maskedload %src[%n, %h2, %w5, %c], %ld2_5_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld3_0 = vector.maskedload %src[%n, %h3, %w0, %c], %ld3_0_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld3_1 = vector.maskedload %src[%n, %h3, %w1, %c], %ld3_1_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld3_2 = vector.maskedload %src[%n, %h3, %w2, %c], %ld3_2_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld3_3 = vector.maskedload %src[%n, %h3, %w3, %c], %ld3_3_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld3_4 = vector.maskedload %src[%n, %h3, %w4, %c], %ld3_4_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld3_5 = vector.maskedload %src[%n, %h3, %w5, %c], %ld3_5_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld4_0 = vector.maskedload %src[%n, %h4, %w0, %c], %ld4_0_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld4_1 = vector.maskedload %src[%n, %h4, %w1, %c], %ld4_1_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld4_2 = vector.maskedload %src[%n, %h4, %w2, %c], %ld4_2_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld4_3 = vector.maskedload %src[%n, %h4, %w3, %c], %ld4_3_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld4_4 = vector.maskedload %src[%n, %h4, %w4, %c], %ld4_4_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld4_5 = vector.maskedload %src[%n, %h4, %w5, %c], %ld4_5_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld5_0 = vector.maskedload %src[%n, %h5, %w0, %c], %ld5_0_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld5_1 = vector.maskedload %src[%n, %h5, %w1, %c], %ld5_1_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld5_2 = vector.maskedload %src[%n, %h5, %w2, %c], %ld5_2_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld5_3 = vector.maskedload %src[%n, %h5, %w3, %c], %ld5_3_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld5_4 = vector.maskedload %src[%n, %h5, %w4, %c], %ld5_4_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %ld5_5 = vector.maskedload %src[%n, %h5, %w5, %c], %ld5_5_mask, %zero_v : memref<1x56x56x64xf32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
            %tr0_0_0 = arith.mulf %k0, %ld0_0 : vector<16xf32>
            %tr0_0_1 = vector.fma %k1, %ld2_0, %tr0_0_0 : vector<16xf32>
            %tr0_0 = arith.addf %tr0_0_1, %ld4_0 : vector<16xf32>
            %tr0_1_0 = arith.mulf %k0, %ld0_1 : vector<16xf32>
            %tr0_1_1 = vector.fma %k1, %ld2_1, %tr0_1_0 : vector<16xf32>
            %tr0_1 = arith.addf %tr0_1_1, %ld4_1 : vector<16xf32>
            %tr0_2_0 = arith.mulf %k0, %ld0_2 : vector<16xf32>
            %tr0_2_1 = vector.fma %k1, %ld2_2, %tr0_2_0 : vector<16xf32>
            %tr0_2 = arith.addf %tr0_2_1, %ld4_2 : vector<16xf32>
            %tr0_3_0 = arith.mulf %k0, %ld0_3 : vector<16xf32>
            %tr0_3_1 = vector.fma %k1, %ld2_3, %tr0_3_0 : vector<16xf32>
            %tr0_3 = arith.addf %tr0_3_1, %ld4_3 : vector<16xf32>
            %tr0_4_0 = arith.mulf %k0, %ld0_4 : vector<16xf32>
            %tr0_4_1 = vector.fma %k1, %ld2_4, %tr0_4_0 : vector<16xf32>
            %tr0_4 = arith.addf %tr0_4_1, %ld4_4 : vector<16xf32>
            %tr0_5_0 = arith.mulf %k0, %ld0_5 : vector<16xf32>
            %tr0_5_1 = vector.fma %k1, %ld2_5, %tr0_5_0 : vector<16xf32>
            %tr0_5 = arith.addf %tr0_5_1, %ld4_5 : vector<16xf32>
            %tr1_0_0 = arith.mulf %k2, %ld1_0 : vector<16xf32>
            %tr1_0_1 = vector.fma %k2, %ld2_0, %tr1_0_0 : vector<16xf32>
            %tr1_0_2 = arith.addf %tr1_0_1, %ld3_0 : vector<16xf32>
            %tr1_0 = arith.addf %tr1_0_2, %ld4_0 : vector<16xf32>
            %tr1_1_0 = arith.mulf %k2, %ld1_1 : vector<16xf32>
            %tr1_1_1 = vector.fma %k2, %ld2_1, %tr1_1_0 : vector<16xf32>
            %tr1_1_2 = arith.addf %tr1_1_1, %ld3_1 : vector<16xf32>
            %tr1_1 = arith.addf %tr1_1_2, %ld4_1 : vector<16xf32>
            %tr1_2_0 = arith.mulf %k2, %ld1_2 : vector<16xf32>
            %tr1_2_1 = vector.fma %k2, %ld2_2, %tr1_2_0 : vector<16xf32>
            %tr1_2_2 = arith.addf %tr1_2_1, %ld3_2 : vector<16xf32>
            %tr1_2 = arith.addf %tr1_2_2, %ld4_2 : vector<16xf32>
            %tr1_3_0 = arith.mulf %k2, %ld1_3 : vector<16xf32>
            %tr1_3_1 = vector.fma %k2, %ld2_3, %tr1_3_0 : vector<16xf32>
            %tr1_3_2 = arith.addf %tr1_3_1, %ld3_3 : vector<16xf32>
            %tr1_3 = arith.addf %tr1_3_2, %ld4_3 : vector<16xf32>
            %tr1_4_0 = arith.mulf %k2, %ld1_4 : vector<16xf32>
            %tr1_4_1 = vector.fma %k2, %ld2_4, %tr1_4_0 : vector<16xf32>
            %tr1_4_2 = arith.addf %tr1_4_1, %ld3_4 : vector<16xf32>
            %tr1_4 = arith.addf %tr1_4_2, %ld4_4 : vector<16xf32>
            %tr1_5_0 = arith.mulf %k2, %ld1_5 : vector<16xf32>
            %tr1_5_1 = vector.fma %k2, %ld2_5, %tr1_5_0 : vector<16xf32>
            %tr1_5_2 = arith.addf %tr1_5_1, %ld3_5 : vector<16xf32>
            %tr1_5 = arith.addf %tr1_5_2, %ld4_5 : vector<16xf32>
            %tr2_0_0 = arith.mulf %k0, %ld1_0 : vector<16xf32>
            %tr2_0_1 = vector.fma %k2, %ld2_0, %tr2_0_0 : vector<16xf32>
            %tr2_0_2 = arith.subf %tr2_0_1, %ld3_0 : vector<16xf32>
            %tr2_0 = arith.addf %tr2_0_2, %ld4_0 : vector<16xf32>
            %tr2_1_0 = arith.mulf %k0, %ld1_1 : vector<16xf32>
            %tr2_1_1 = vector.fma %k2, %ld2_1, %tr2_1_0 : vector<16xf32>
            %tr2_1_2 = arith.subf %tr2_1_1, %ld3_1 : vector<16xf32>
            %tr2_1 = arith.addf %tr2_1_2, %ld4_1 : vector<16xf32>
            %tr2_2_0 = arith.mulf %k0, %ld1_2 : vector<16xf32>
            %tr2_2_1 = vector.fma %k2, %ld2_2, %tr2_2_0 : vector<16xf32>
            %tr2_2_2 = arith.subf %tr2_2_1, %ld3_2 : vector<16xf32>
            %tr2_2 = arith.addf %tr2_2_2, %ld4_2 : vector<16xf32>
            %tr2_3_0 = arith.mulf %k0, %ld1_3 : vector<16xf32>
            %tr2_3_1 = vector.fma %k2, %ld2_3, %tr2_3_0 : vector<16xf32>
            %tr2_3_2 = arith.subf %tr2_3_1, %ld3_3 : vector<16xf32>
            %tr2_3 = arith.addf %tr2_3_2, %ld4_3 : vector<16xf32>
            %tr2_4_0 = arith.mulf %k0, %ld1_4 : vector<16xf32>
            %tr2_4_1 = vector.fma %k2, %ld2_4, %tr2_4_0 : vector<16xf32>
            %tr2_4_2 = arith.subf %tr2_4_1, %ld3_4 : vector<16xf32>
            %tr2_4 = arith.addf %tr2_4_2, %ld4_4 : vector<16xf32>
            %tr2_5_0 = arith.mulf %k0, %ld1_5 : vector<16xf32>
            %tr2_5_1 = vector.fma %k2, %ld2_5, %tr2_5_0 : vector<16xf32>
            %tr2_5_2 = arith.subf %tr2_5_1, %ld3_5 : vector<16xf32>
            %tr2_5 = arith.addf %tr2_5_2, %ld4_5 : vector<16xf32>
            %tr3_0_0 = arith.mulf %k3, %ld1_0 : vector<16xf32>
            %tr3_0_1 = arith.subf %tr3_0_0, %ld2_0 : vector<16xf32>
            %tr3_0_2 = vector.fma %k4, %ld3_0, %tr3_0_1 : vector<16xf32>
            %tr3_0 = arith.addf %tr3_0_2, %ld4_0 : vector<16xf32>
            %tr3_1_0 = arith.mulf %k3, %ld1_1 : vector<16xf32>
            %tr3_1_1 = arith.subf %tr3_1_0, %ld2_1 : vector<16xf32>
            %tr3_1_2 = vector.fma %k4, %ld3_1, %tr3_1_1 : vector<16xf32>
            %tr3_1 = arith.addf %tr3_1_2, %ld4_1 : vector<16xf32>
            %tr3_2_0 = arith.mulf %k3, %ld1_2 : vector<16xf32>
            %tr3_2_1 = arith.subf %tr3_2_0, %ld2_2 : vector<16xf32>
            %tr3_2_2 = vector.fma %k4, %ld3_2, %tr3_2_1 : vector<16xf32>
            %tr3_2 = arith.addf %tr3_2_2, %ld4_2 : vector<16xf32>
            %tr3_3_0 = arith.mulf %k3, %ld1_3 : vector<16xf32>
            %tr3_3_1 = arith.subf %tr3_3_0, %ld2_3 : vector<16xf32>
            %tr3_3_2 = vector.fma %k4, %ld3_3, %tr3_3_1 : vector<16xf32>
            %tr3_3 = arith.addf %tr3_3_2, %ld4_3 : vector<16xf32>
            %tr3_4_0 = arith.mulf %k3, %ld1_4 : vector<16xf32>
            %tr3_4_1 = arith.subf %tr3_4_0, %ld2_4 : vector<16xf32>
            %tr3_4_2 = vector.fma %k4, %ld3_4, %tr3_4_1 : vector<16xf32>
            %tr3_4 = arith.addf %tr3_4_2, %ld4_4 : vector<16xf32>
            %tr3_5_0 = arith.mulf %k3, %ld1_5 : vector<16xf32>
            %tr3_5_1 = arith.subf %tr3_5_0, %ld2_5 : vector<16xf32>
            %tr3_5_2 = vector.fma %k4, %ld3_5, %tr3_5_1 : vector<16xf32>
            %tr3_5 = arith.addf %tr3_5_2, %ld4_5 : vector<16xf32>
            %tr4_0_0 = arith.mulf %k4, %ld1_0 : vector<16xf32>
            %tr4_0_1 = arith.subf %tr4_0_0, %ld2_0 : vector<16xf32>
            %tr4_0_2 = vector.fma %k3, %ld3_0, %tr4_0_1 : vector<16xf32>
            %tr4_0 = arith.addf %tr4_0_2, %ld4_0 : vector<16xf32>
            %tr4_1_0 = arith.mulf %k4, %ld1_1 : vector<16xf32>
            %tr4_1_1 = arith.subf %tr4_1_0, %ld2_1 : vector<16xf32>
            %tr4_1_2 = vector.fma %k3, %ld3_1, %tr4_1_1 : vector<16xf32>
            %tr4_1 = arith.addf %tr4_1_2, %ld4_1 : vector<16xf32>
            %tr4_2_0 = arith.mulf %k4, %ld1_2 : vector<16xf32>
            %tr4_2_1 = arith.subf %tr4_2_0, %ld2_2 : vector<16xf32>
            %tr4_2_2 = vector.fma %k3, %ld3_2, %tr4_2_1 : vector<16xf32>
            %tr4_2 = arith.addf %tr4_2_2, %ld4_2 : vector<16xf32>
            %tr4_3_0 = arith.mulf %k4, %ld1_3 : vector<16xf32>
            %tr4_3_1 = arith.subf %tr4_3_0, %ld2_3 : vector<16xf32>
            %tr4_3_2 = vector.fma %k3, %ld3_3, %tr4_3_1 : vector<16xf32>
            %tr4_3 = arith.addf %tr4_3_2, %ld4_3 : vector<16xf32>
            %tr4_4_0 = arith.mulf %k4, %ld1_4 : vector<16xf32>
            %tr4_4_1 = arith.subf %tr4_4_0, %ld2_4 : vector<16xf32>
            %tr4_4_2 = vector.fma %k3, %ld3_4, %tr4_4_1 : vector<16xf32>
            %tr4_4 = arith.addf %tr4_4_2, %ld4_4 : vector<16xf32>
            %tr4_5_0 = arith.mulf %k4, %ld1_5 : vector<16xf32>
            %tr4_5_1 = arith.subf %tr4_5_0, %ld2_5 : vector<16xf32>
            %tr4_5_2 = vector.fma %k3, %ld3_5, %tr4_5_1 : vector<16xf32>
            %tr4_5 = arith.addf %tr4_5_2, %ld4_5 : vector<16xf32>
            %tr5_0_0 = arith.mulf %k0, %ld1_0 : vector<16xf32>
            %tr5_0_1 = vector.fma %k1, %ld3_0, %tr5_0_0 : vector<16xf32>
            %tr5_0 = arith.addf %tr5_0_1, %ld5_0 : vector<16xf32>
            %tr5_1_0 = arith.mulf %k0, %ld1_1 : vector<16xf32>
            %tr5_1_1 = vector.fma %k1, %ld3_1, %tr5_1_0 : vector<16xf32>
            %tr5_1 = arith.addf %tr5_1_1, %ld5_1 : vector<16xf32>
            %tr5_2_0 = arith.mulf %k0, %ld1_2 : vector<16xf32>
            %tr5_2_1 = vector.fma %k1, %ld3_2, %tr5_2_0 : vector<16xf32>
            %tr5_2 = arith.addf %tr5_2_1, %ld5_2 : vector<16xf32>
            %tr5_3_0 = arith.mulf %k0, %ld1_3 : vector<16xf32>
            %tr5_3_1 = vector.fma %k1, %ld3_3, %tr5_3_0 : vector<16xf32>
            %tr5_3 = arith.addf %tr5_3_1, %ld5_3 : vector<16xf32>
            %tr5_4_0 = arith.mulf %k0, %ld1_4 : vector<16xf32>
            %tr5_4_1 = vector.fma %k1, %ld3_4, %tr5_4_0 : vector<16xf32>
            %tr5_4 = arith.addf %tr5_4_1, %ld5_4 : vector<16xf32>
            %tr5_5_0 = arith.mulf %k0, %ld1_5 : vector<16xf32>
            %tr5_5_1 = vector.fma %k1, %ld3_5, %tr5_5_0 : vector<16xf32>
            %tr5_5 = arith.addf %tr5_5_1, %ld5_5 : vector<16xf32>
            %out0_0_0 = arith.mulf %k0, %tr0_0 : vector<16xf32>
            %out0_0_1 = vector.fma %k1, %tr0_2, %out0_0_0 : vector<16xf32>
            %out0_0 = arith.addf %out0_0_1, %tr0_4 : vector<16xf32>
            %out0_1_0 = arith.mulf %k2, %tr0_1 : vector<16xf32>
            %out0_1_1 = vector.fma %k2, %tr0_2, %out0_1_0 : vector<16xf32>
            %out0_1_2 = arith.addf %out0_1_1, %tr0_3 : vector<16xf32>
            %out0_1 = arith.addf %out0_1_2, %tr0_4 : vector<16xf32>
            %out0_2_0 = arith.mulf %k0, %tr0_1 : vector<16xf32>
            %out0_2_1 = vector.fma %k2, %tr0_2, %out0_2_0 : vector<16xf32>
            %out0_2_2 = arith.subf %out0_2_1, %tr0_3 : vector<16xf32>
            %out0_2 = arith.addf %out0_2_2, %tr0_4 : vector<16xf32>
            %out0_3_0 = arith.mulf %k3, %tr0_1 : vector<16xf32>
            %out0_3_1 = arith.subf %out0_3_0, %tr0_2 : vector<16xf32>
            %out0_3_2 = vector.fma %k4, %tr0_3, %out0_3_1 : vector<16xf32>
            %out0_3 = arith.addf %out0_3_2, %tr0_4 : vector<16xf32>
            %out0_4_0 = arith.mulf %k4, %tr0_1 : vector<16xf32>
            %out0_4_1 = arith.subf %out0_4_0, %tr0_2 : vector<16xf32>
            %out0_4_2 = vector.fma %k3, %tr0_3, %out0_4_1 : vector<16xf32>
            %out0_4 = arith.addf %out0_4_2, %tr0_4 : vector<16xf32>
            %out0_5_0 = arith.mulf %k0, %tr0_1 : vector<16xf32>
            %out0_5_1 = vector.fma %k1, %tr0_3, %out0_5_0 : vector<16xf32>
            %out0_5 = arith.addf %out0_5_1, %tr0_5 : vector<16xf32>
            %out1_0_0 = arith.mulf %k0, %tr1_0 : vector<16xf32>
            %out1_0_1 = vector.fma %k1, %tr1_2, %out1_0_0 : vector<16xf32>
            %out1_0 = arith.addf %out1_0_1, %tr1_4 : vector<16xf32>
            %out1_1_0 = arith.mulf %k2, %tr1_1 : vector<16xf32>
            %out1_1_1 = vector.fma %k2, %tr1_2, %out1_1_0 : vector<16xf32>
            %out1_1_2 = arith.addf %out1_1_1, %tr1_3 : vector<16xf32>
            %out1_1 = arith.addf %out1_1_2, %tr1_4 : vector<16xf32>
            %out1_2_0 = arith.mulf %k0, %tr1_1 : vector<16xf32>
            %out1_2_1 = vector.fma %k2, %tr1_2, %out1_2_0 : vector<16xf32>
            %out1_2_2 = arith.subf %out1_2_1, %tr1_3 : vector<16xf32>
            %out1_2 = arith.addf %out1_2_2, %tr1_4 : vector<16xf32>
            %out1_3_0 = arith.mulf %k3, %tr1_1 : vector<16xf32>
            %out1_3_1 = arith.subf %out1_3_0, %tr1_2 : vector<16xf32>
            %out1_3_2 = vector.fma %k4, %tr1_3, %out1_3_1 : vector<16xf32>
            %out1_3 = arith.addf %out1_3_2, %tr1_4 : vector<16xf32>
            %out1_4_0 = arith.mulf %k4, %tr1_1 : vector<16xf32>
            %out1_4_1 = arith.subf %out1_4_0, %tr1_2 : vector<16xf32>
            %out1_4_2 = vector.fma %k3, %tr1_3, %out1_4_1 : vector<16xf32>
            %out1_4 = arith.addf %out1_4_2, %tr1_4 : vector<16xf32>
            %out1_5_0 = arith.mulf %k0, %tr1_1 : vector<16xf32>
            %out1_5_1 = vector.fma %k1, %tr1_3, %out1_5_0 : vector<16xf32>
            %out1_5 = arith.addf %out1_5_1, %tr1_5 : vector<16xf32>
            %out2_0_0 = arith.mulf %k0, %tr2_0 : vector<16xf32>
            %out2_0_1 = vector.fma %k1, %tr2_2, %out2_0_0 : vector<16xf32>
            %out2_0 = arith.addf %out2_0_1, %tr2_4 : vector<16xf32>
            %out2_1_0 = arith.mulf %k2, %tr2_1 : vector<16xf32>
            %out2_1_1 = vector.fma %k2, %tr2_2, %out2_1_0 : vector<16xf32>
            %out2_1_2 = arith.addf %out2_1_1, %tr2_3 : vector<16xf32>
            %out2_1 = arith.addf %out2_1_2, %tr2_4 : vector<16xf32>
            %out2_2_0 = arith.mulf %k0, %tr2_1 : vector<16xf32>
            %out2_2_1 = vector.fma %k2, %tr2_2, %out2_2_0 : vector<16xf32>
            %out2_2_2 = arith.subf %out2_2_1, %tr2_3 : vector<16xf32>
            %out2_2 = arith.addf %out2_2_2, %tr2_4 : vector<16xf32>
            %out2_3_0 = arith.mulf %k3, %tr2_1 : vector<16xf32>
            %out2_3_1 = arith.subf %out2_3_0, %tr2_2 : vector<16xf32>
            %out2_3_2 = vector.fma %k4, %tr2_3, %out2_3_1 : vector<16xf32>
            %out2_3 = arith.addf %out2_3_2, %tr2_4 : vector<16xf32>
            %out2_4_0 = arith.mulf %k4, %tr2_1 : vector<16xf32>
            %out2_4_1 = arith.subf %out2_4_0, %tr2_2 : vector<16xf32>
            %out2_4_2 = vector.fma %k3, %tr2_3, %out2_4_1 : vector<16xf32>
            %out2_4 = arith.addf %out2_4_2, %tr2_4 : vector<16xf32>
            %out2_5_0 = arith.mulf %k0, %tr2_1 : vector<16xf32>
            %out2_5_1 = vector.fma %k1, %tr2_3, %out2_5_0 : vector<16xf32>
            %out2_5 = arith.addf %out2_5_1, %tr2_5 : vector<16xf32>
            %out3_0_0 = arith.mulf %k0, %tr3_0 : vector<16xf32>
            %out3_0_1 = vector.fma %k1, %tr3_2, %out3_0_0 : vector<16xf32>
            %out3_0 = arith.addf %out3_0_1, %tr3_4 : vector<16xf32>
            %out3_1_0 = arith.mulf %k2, %tr3_1 : vector<16xf32>
            %out3_1_1 = vector.fma %k2, %tr3_2, %out3_1_0 : vector<16xf32>
            %out3_1_2 = arith.addf %out3_1_1, %tr3_3 : vector<16xf32>
            %out3_1 = arith.addf %out3_1_2, %tr3_4 : vector<16xf32>
            %out3_2_0 = arith.mulf %k0, %tr3_1 : vector<16xf32>
            %out3_2_1 = vector.fma %k2, %tr3_2, %out3_2_0 : vector<16xf32>
            %out3_2_2 = arith.subf %out3_2_1, %tr3_3 : vector<16xf32>
            %out3_2 = arith.addf %out3_2_2, %tr3_4 : vector<16xf32>
            %out3_3_0 = arith.mulf %k3, %tr3_1 : vector<16xf32>
            %out3_3_1 = arith.subf %out3_3_0, %tr3_2 : vector<16xf32>
            %out3_3_2 = vector.fma %k4, %tr3_3, %out3_3_1 : vector<16xf32>
            %out3_3 = arith.addf %out3_3_2, %tr3_4 : vector<16xf32>
            %out3_4_0 = arith.mulf %k4, %tr3_1 : vector<16xf32>
            %out3_4_1 = arith.subf %out3_4_0, %tr3_2 : vector<16xf32>
            %out3_4_2 = vector.fma %k3, %tr3_3, %out3_4_1 : vector<16xf32>
            %out3_4 = arith.addf %out3_4_2, %tr3_4 : vector<16xf32>
            %out3_5_0 = arith.mulf %k0, %tr3_1 : vector<16xf32>
            %out3_5_1 = vector.fma %k1, %tr3_3, %out3_5_0 : vector<16xf32>
            %out3_5 = arith.addf %out3_5_1, %tr3_5 : vector<16xf32>
            %out4_0_0 = arith.mulf %k0, %tr4_0 : vector<16xf32>
            %out4_0_1 = vector.fma %k1, %tr4_2, %out4_0_0 : vector<16xf32>
            %out4_0 = arith.addf %out4_0_1, %tr4_4 : vector<16xf32>
            %out4_1_0 = arith.mulf %k2, %tr4_1 : vector<16xf32>
            %out4_1_1 = vector.fma %k2, %tr4_2, %out4_1_0 : vector<16xf32>
            %out4_1_2 = arith.addf %out4_1_1, %tr4_3 : vector<16xf32>
            %out4_1 = arith.addf %out4_1_2, %tr4_4 : vector<16xf32>
            %out4_2_0 = arith.mulf %k0, %tr4_1 : vector<16xf32>
            %out4_2_1 = vector.fma %k2, %tr4_2, %out4_2_0 : vector<16xf32>
            %out4_2_2 = arith.subf %out4_2_1, %tr4_3 : vector<16xf32>
            %out4_2 = arith.addf %out4_2_2, %tr4_4 : vector<16xf32>
            %out4_3_0 = arith.mulf %k3, %tr4_1 : vector<16xf32>
            %out4_3_1 = arith.subf %out4_3_0, %tr4_2 : vector<16xf32>
            %out4_3_2 = vector.fma %k4, %tr4_3, %out4_3_1 : vector<16xf32>
            %out4_3 = arith.addf %out4_3_2, %tr4_4 : vector<16xf32>
            %out4_4_0 = arith.mulf %k4, %tr4_1 : vector<16xf32>
            %out4_4_1 = arith.subf %out4_4_0, %tr4_2 : vector<16xf32>
            %out4_4_2 = vector.fma %k3, %tr4_3, %out4_4_1 : vector<16xf32>
            %out4_4 = arith.addf %out4_4_2, %tr4_4 : vector<16xf32>
            %out4_5_0 = arith.mulf %k0, %tr4_1 : vector<16xf32>
            %out4_5_1 = vector.fma %k1, %tr4_3, %out4_5_0 : vector<16xf32>
            %out4_5 = arith.addf %out4_5_1, %tr4_5 : vector<16xf32>
            %out5_0_0 = arith.mulf %k0, %tr5_0 : vector<16xf32>
            %out5_0_1 = vector.fma %k1, %tr5_2, %out5_0_0 : vector<16xf32>
            %out5_0 = arith.addf %out5_0_1, %tr5_4 : vector<16xf32>
            %out5_1_0 = arith.mulf %k2, %tr5_1 : vector<16xf32>
            %out5_1_1 = vector.fma %k2, %tr5_2, %out5_1_0 : vector<16xf32>
            %out5_1_2 = arith.addf %out5_1_1, %tr5_3 : vector<16xf32>
            %out5_1 = arith.addf %out5_1_2, %tr5_4 : vector<16xf32>
            %out5_2_0 = arith.mulf %k0, %tr5_1 : vector<16xf32>
            %out5_2_1 = vector.fma %k2, %tr5_2, %out5_2_0 : vector<16xf32>
            %out5_2_2 = arith.subf %out5_2_1, %tr5_3 : vector<16xf32>
            %out5_2 = arith.addf %out5_2_2, %tr5_4 : vector<16xf32>
            %out5_3_0 = arith.mulf %k3, %tr5_1 : vector<16xf32>
            %out5_3_1 = arith.subf %out5_3_0, %tr5_2 : vector<16xf32>
            %out5_3_2 = vector.fma %k4, %tr5_3, %out5_3_1 : vector<16xf32>
            %out5_3 = arith.addf %out5_3_2, %tr5_4 : vector<16xf32>
            %out5_4_0 = arith.mulf %k4, %tr5_1 : vector<16xf32>
            %out5_4_1 = arith.subf %out5_4_0, %tr5_2 : vector<16xf32>
            %out5_4_2 = vector.fma %k3, %tr5_3, %out5_4_1 : vector<16xf32>
            %out5_4 = arith.addf %out5_4_2, %tr5_4 : vector<16xf32>
            %out5_5_0 = arith.mulf %k0, %tr5_1 : vector<16xf32>
            %out5_5_1 = vector.fma %k1, %tr5_3, %out5_5_0 : vector<16xf32>
            %out5_5 = arith.addf %out5_5_1, %tr5_5 : vector<16xf32>

            %st0_0 = arith.addi %c, %pos0 : index
            vector.store %out0_0, %dst[%c0, %band_row, %tw, %st0_0] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st0_1 = arith.addi %c, %pos1 : index
            vector.store %out0_1, %dst[%c0, %band_row, %tw, %st0_1] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st0_2 = arith.addi %c, %pos2 : index
            vector.store %out0_2, %dst[%c0, %band_row, %tw, %st0_2] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st0_3 = arith.addi %c, %pos3 : index
            vector.store %out0_3, %dst[%c0, %band_row, %tw, %st0_3] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st0_4 = arith.addi %c, %pos4 : index
            vector.store %out0_4, %dst[%c0, %band_row, %tw, %st0_4] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st0_5 = arith.addi %c, %pos5 : index
            vector.store %out0_5, %dst[%c0, %band_row, %tw, %st0_5] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st1_0 = arith.addi %c, %pos6 : index
            vector.store %out1_0, %dst[%c0, %band_row, %tw, %st1_0] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st1_1 = arith.addi %c, %pos7 : index
            vector.store %out1_1, %dst[%c0, %band_row, %tw, %st1_1] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st1_2 = arith.addi %c, %pos8 : index
            vector.store %out1_2, %dst[%c0, %band_row, %tw, %st1_2] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st1_3 = arith.addi %c, %pos9 : index
            vector.store %out1_3, %dst[%c0, %band_row, %tw, %st1_3] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st1_4 = arith.addi %c, %pos10 : index
            vector.store %out1_4, %dst[%c0, %band_row, %tw, %st1_4] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st1_5 = arith.addi %c, %pos11 : index
            vector.store %out1_5, %dst[%c0, %band_row, %tw, %st1_5] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st2_0 = arith.addi %c, %pos12 : index
            vector.store %out2_0, %dst[%c0, %band_row, %tw, %st2_0] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st2_1 = arith.addi %c, %pos13 : index
            vector.store %out2_1, %dst[%c0, %band_row, %tw, %st2_1] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st2_2 = arith.addi %c, %pos14 : index
            vector.store %out2_2, %dst[%c0, %band_row, %tw, %st2_2] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st2_3 = arith.addi %c, %pos15 : index
            vector.store %out2_3, %dst[%c0, %band_row, %tw, %st2_3] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st2_4 = arith.addi %c, %pos16 : index
            vector.store %out2_4, %dst[%c0, %band_row, %tw, %st2_4] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st2_5 = arith.addi %c, %pos17 : index
            vector.store %out2_5, %dst[%c0, %band_row, %tw, %st2_5] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st3_0 = arith.addi %c, %pos18 : index
            vector.store %out3_0, %dst[%c0, %band_row, %tw, %st3_0] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st3_1 = arith.addi %c, %pos19 : index
            vector.store %out3_1, %dst[%c0, %band_row, %tw, %st3_1] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st3_2 = arith.addi %c, %pos20 : index
            vector.store %out3_2, %dst[%c0, %band_row, %tw, %st3_2] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st3_3 = arith.addi %c, %pos21 : index
            vector.store %out3_3, %dst[%c0, %band_row, %tw, %st3_3] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st3_4 = arith.addi %c, %pos22 : index
            vector.store %out3_4, %dst[%c0, %band_row, %tw, %st3_4] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st3_5 = arith.addi %c, %pos23 : index
            vector.store %out3_5, %dst[%c0, %band_row, %tw, %st3_5] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st4_0 = arith.addi %c, %pos24 : index
            vector.store %out4_0, %dst[%c0, %band_row, %tw, %st4_0] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st4_1 = arith.addi %c, %pos25 : index
            vector.store %out4_1, %dst[%c0, %band_row, %tw, %st4_1] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st4_2 = arith.addi %c, %pos26 : index
            vector.store %out4_2, %dst[%c0, %band_row, %tw, %st4_2] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st4_3 = arith.addi %c, %pos27 : index
            vector.store %out4_3, %dst[%c0, %band_row, %tw, %st4_3] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st4_4 = arith.addi %c, %pos28 : index
            vector.store %out4_4, %dst[%c0, %band_row, %tw, %st4_4] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st4_5 = arith.addi %c, %pos29 : index
            vector.store %out4_5, %dst[%c0, %band_row, %tw, %st4_5] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st5_0 = arith.addi %c, %pos30 : index
            vector.store %out5_0, %dst[%c0, %band_row, %tw, %st5_0] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st5_1 = arith.addi %c, %pos31 : index
            vector.store %out5_1, %dst[%c0, %band_row, %tw, %st5_1] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st5_2 = arith.addi %c, %pos32 : index
            vector.store %out5_2, %dst[%c0, %band_row, %tw, %st5_2] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st5_3 = arith.addi %c, %pos33 : index
            vector.store %out5_3, %dst[%c0, %band_row, %tw, %st5_3] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st5_4 = arith.addi %c, %pos34 : index
            vector.store %out5_4, %dst[%c0, %band_row, %tw, %st5_4] : memref<1x7x14x2304xf32>, vector<16xf32>
            %st5_5 = arith.addi %c, %pos35 : index
            vector.store %out5_5, %dst[%c0, %band_row, %tw, %st5_5] : memref<1x7x14x2304xf32>, vector<16xf32>
          }
        }
        return
      }
    }
}
stream.executable private @v11_brgemm {
    stream.executable.export public @v11_brgemm workgroups() -> (index, index, index) {
      %x = arith.constant 1 : index
      %y = arith.constant 36 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @v11_brgemm(%x_binding: !stream.binding, %w_binding: !stream.binding, %y_binding: !stream.binding) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %x = stream.binding.subspan %x_binding[%c0] : !stream.binding -> memref<1x1x98x2304xf32>
        %w = stream.binding.subspan %w_binding[%c0] : !stream.binding -> memref<36x1x1x64x4x16xf32>
        %y = stream.binding.subspan %y_binding[%c0] : !stream.binding -> memref<1x1x98x2304xf32>
        %ohb = hal.interface.workgroup.id[0] : index
        %ob = hal.interface.workgroup.id[1] : index
        %z = hal.interface.workgroup.id[2] : index
        %n = arith.addi %z, %c0 : index
        %img0 = arith.addi %z, %c0 : index
        %kh_n = arith.constant 1 : index
        %kw_n = arith.constant 1 : index
        %ick_n = arith.constant 64 : index
        %sh = arith.constant 1 : index
        %sw = arith.constant 1 : index
        %dh = arith.constant 1 : index
        %dw = arith.constant 1 : index
        %rw = arith.constant 6 : index
        %rh = arith.constant 1 : index
        %oh_n = arith.constant 1 : index
        %owb_n = arith.constant 16 : index
        %oc_step = arith.constant 64 : index
        %oc0 = arith.muli %ob, %oc_step : index
        %ocbg_n = arith.constant 1 : index
        %g = arith.divui %ob, %ocbg_n : index
        %icgp = arith.constant 64 : index
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
        %o0 = arith.constant 0 : index
        %o16_0 = arith.constant 0 : index
        %ocv0 = arith.addi %oc0, %o16_0 : index
        %o1 = arith.constant 1 : index
        %o16_1 = arith.constant 16 : index
        %ocv1 = arith.addi %oc0, %o16_1 : index
        %o2 = arith.constant 2 : index
        %o16_2 = arith.constant 32 : index
        %ocv2 = arith.addi %oc0, %o16_2 : index
        %o3 = arith.constant 3 : index
        %o16_3 = arith.constant 48 : index
        %ocv3 = arith.addi %oc0, %o16_3 : index
        scf.for %oh = %oh_lo to %oh_hi step %c1 {
          %ih0 = arith.muli %oh, %sh : index
          scf.for %owb = %c0 to %owb_n step %c1 {
            %ow0 = arith.muli %owb, %rw : index
            %iwb = arith.muli %ow0, %sw : index
            %h:24 = scf.for %kh = %c0 to %kh_n step %c1 iter_args(%h0_0 = %zero, %h0_1 = %zero, %h0_2 = %zero, %h0_3 = %zero, %h1_0 = %zero, %h1_1 = %zero, %h1_2 = %zero, %h1_3 = %zero, %h2_0 = %zero, %h2_1 = %zero, %h2_2 = %zero, %h2_3 = %zero, %h3_0 = %zero, %h3_1 = %zero, %h3_2 = %zero, %h3_3 = %zero, %h4_0 = %zero, %h4_1 = %zero, %h4_2 = %zero, %h4_3 = %zero, %h5_0 = %zero, %h5_1 = %zero, %h5_2 = %zero, %h5_3 = %zero) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
              %img = arith.addi %img0, %c0 : index
              %khi = arith.addi %kh, %c0 : index
              %khd = arith.muli %kh, %dh : index
              %ih = arith.addi %ih0, %khd : index
              %t:24 = scf.for %kw = %c0 to %kw_n step %c1 iter_args(%t0_0 = %h0_0, %t0_1 = %h0_1, %t0_2 = %h0_2, %t0_3 = %h0_3, %t1_0 = %h1_0, %t1_1 = %h1_1, %t1_2 = %h1_2, %t1_3 = %h1_3, %t2_0 = %h2_0, %t2_1 = %h2_1, %t2_2 = %h2_2, %t2_3 = %h2_3, %t3_0 = %h3_0, %t3_1 = %h3_1, %t3_2 = %h3_2, %t3_3 = %h3_3, %t4_0 = %h4_0, %t4_1 = %h4_1, %t4_2 = %h4_2, %t4_3 = %h4_3, %t5_0 = %h5_0, %t5_1 = %h5_1, %t5_2 = %h5_2, %t5_3 = %h5_3) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
                %kwd = arith.muli %kw, %dw : index
                %iwk = arith.addi %iwb, %kwd : index
                %q:24 = scf.for %ig = %c0 to %ick_n step %c1 iter_args(%q0_0 = %t0_0, %q0_1 = %t0_1, %q0_2 = %t0_2, %q0_3 = %t0_3, %q1_0 = %t1_0, %q1_1 = %t1_1, %q1_2 = %t1_2, %q1_3 = %t1_3, %q2_0 = %t2_0, %q2_1 = %t2_1, %q2_2 = %t2_2, %q2_3 = %t2_3, %q3_0 = %t3_0, %q3_1 = %t3_1, %q3_2 = %t3_2, %q3_3 = %t3_3, %q4_0 = %t4_0, %q4_1 = %t4_1, %q4_2 = %t4_2, %q4_3 = %t4_3, %q5_0 = %t5_0, %q5_1 = %t5_1, %q5_2 = %t5_2, %q5_3 = %t5_3) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
                  %icl = arith.muli %ig, %ck : index
                  %ic = arith.addi %icg0, %icl : index
                  %wv0 = vector.load %w[%ob, %khi, %kw, %ig, %o0, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %wv1 = vector.load %w[%ob, %khi, %kw, %ig, %o1, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %wv2 = vector.load %w[%ob, %khi, %kw, %ig, %o2, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %wv3 = vector.load %w[%ob, %khi, %kw, %ig, %o3, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %ix0 = arith.addi %iwk, %rs0 : index
                  %xq0 = vector.load %x[%img, %ih, %ix0, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd0 = vector.bitcast %xq0 : vector<1xf32> to vector<1xi32>
                  %xs0 = vector.extract %xd0[0] : i32 from vector<1xi32>
                  %xb0 = vector.broadcast %xs0 : i32 to vector<16xi32>
                  %xv0 = vector.bitcast %xb0 : vector<16xi32> to vector<16xf32>
                  %s0_0 = vector.fma %xv0, %wv0, %q0_0 : vector<16xf32>

                  %s0_1 = vector.fma %xv0, %wv1, %q0_1 : vector<16xf32>

                  %s0_2 = vector.fma %xv0, %wv2, %q0_2 : vector<16xf32>

                  %s0_3 = vector.fma %xv0, %wv3, %q0_3 : vector<16xf32>

                  %ix1 = arith.addi %iwk, %rs1 : index
                  %xq1 = vector.load %x[%img, %ih, %ix1, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd1 = vector.bitcast %xq1 : vector<1xf32> to vector<1xi32>
                  %xs1 = vector.extract %xd1[0] : i32 from vector<1xi32>
                  %xb1 = vector.broadcast %xs1 : i32 to vector<16xi32>
                  %xv1 = vector.bitcast %xb1 : vector<16xi32> to vector<16xf32>
                  %s1_0 = vector.fma %xv1, %wv0, %q1_0 : vector<16xf32>

                  %s1_1 = vector.fma %xv1, %wv1, %q1_1 : vector<16xf32>

                  %s1_2 = vector.fma %xv1, %wv2, %q1_2 : vector<16xf32>

                  %s1_3 = vector.fma %xv1, %wv3, %q1_3 : vector<16xf32>

                  %ix2 = arith.addi %iwk, %rs2 : index
                  %xq2 = vector.load %x[%img, %ih, %ix2, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd2 = vector.bitcast %xq2 : vector<1xf32> to vector<1xi32>
                  %xs2 = vector.extract %xd2[0] : i32 from vector<1xi32>
                  %xb2 = vector.broadcast %xs2 : i32 to vector<16xi32>
                  %xv2 = vector.bitcast %xb2 : vector<16xi32> to vector<16xf32>
                  %s2_0 = vector.fma %xv2, %wv0, %q2_0 : vector<16xf32>

                  %s2_1 = vector.fma %xv2, %wv1, %q2_1 : vector<16xf32>

                  %s2_2 = vector.fma %xv2, %wv2, %q2_2 : vector<16xf32>

                  %s2_3 = vector.fma %xv2, %wv3, %q2_3 : vector<16xf32>

                  %ix3 = arith.addi %iwk, %rs3 : index
                  %xq3 = vector.load %x[%img, %ih, %ix3, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd3 = vector.bitcast %xq3 : vector<1xf32> to vector<1xi32>
                  %xs3 = vector.extract %xd3[0] : i32 from vector<1xi32>
                  %xb3 = vector.broadcast %xs3 : i32 to vector<16xi32>
                  %xv3 = vector.bitcast %xb3 : vector<16xi32> to vector<16xf32>
                  %s3_0 = vector.fma %xv3, %wv0, %q3_0 : vector<16xf32>

                  %s3_1 = vector.fma %xv3, %wv1, %q3_1 : vector<16xf32>

                  %s3_2 = vector.fma %xv3, %wv2, %q3_2 : vector<16xf32>

                  %s3_3 = vector.fma %xv3, %wv3, %q3_3 : vector<16xf32>

                  %ix4 = arith.addi %iwk, %rs4 : index
                  %xq4 = vector.load %x[%img, %ih, %ix4, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd4 = vector.bitcast %xq4 : vector<1xf32> to vector<1xi32>
                  %xs4 = vector.extract %xd4[0] : i32 from vector<1xi32>
                  %xb4 = vector.broadcast %xs4 : i32 to vector<16xi32>
                  %xv4 = vector.bitcast %xb4 : vector<16xi32> to vector<16xf32>
                  %s4_0 = vector.fma %xv4, %wv0, %q4_0 : vector<16xf32>

                  %s4_1 = vector.fma %xv4, %wv1, %q4_1 : vector<16xf32>

                  %s4_2 = vector.fma %xv4, %wv2, %q4_2 : vector<16xf32>

                  %s4_3 = vector.fma %xv4, %wv3, %q4_3 : vector<16xf32>

                  %ix5 = arith.addi %iwk, %rs5 : index
                  %xq5 = vector.load %x[%img, %ih, %ix5, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd5 = vector.bitcast %xq5 : vector<1xf32> to vector<1xi32>
                  %xs5 = vector.extract %xd5[0] : i32 from vector<1xi32>
                  %xb5 = vector.broadcast %xs5 : i32 to vector<16xi32>
                  %xv5 = vector.bitcast %xb5 : vector<16xi32> to vector<16xf32>
                  %s5_0 = vector.fma %xv5, %wv0, %q5_0 : vector<16xf32>

                  %s5_1 = vector.fma %xv5, %wv1, %q5_1 : vector<16xf32>

                  %s5_2 = vector.fma %xv5, %wv2, %q5_2 : vector<16xf32>

                  %s5_3 = vector.fma %xv5, %wv3, %q5_3 : vector<16xf32>

                  scf.yield %s0_0, %s0_1, %s0_2, %s0_3, %s1_0, %s1_1, %s1_2, %s1_3, %s2_0, %s2_1, %s2_2, %s2_3, %s3_0, %s3_1, %s3_2, %s3_3, %s4_0, %s4_1, %s4_2, %s4_3, %s5_0, %s5_1, %s5_2, %s5_3 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
                }
                scf.yield %q#0, %q#1, %q#2, %q#3, %q#4, %q#5, %q#6, %q#7, %q#8, %q#9, %q#10, %q#11, %q#12, %q#13, %q#14, %q#15, %q#16, %q#17, %q#18, %q#19, %q#20, %q#21, %q#22, %q#23 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
              }
              scf.yield %t#0, %t#1, %t#2, %t#3, %t#4, %t#5, %t#6, %t#7, %t#8, %t#9, %t#10, %t#11, %t#12, %t#13, %t#14, %t#15, %t#16, %t#17, %t#18, %t#19, %t#20, %t#21, %t#22, %t#23 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
            }
            %owr0 = arith.addi %ow0, %r0 : index
            vector.store %h#0, %y[%z, %oh, %owr0, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#1, %y[%z, %oh, %owr0, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#2, %y[%z, %oh, %owr0, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#3, %y[%z, %oh, %owr0, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>

            %owr1 = arith.addi %ow0, %r1 : index
            vector.store %h#4, %y[%z, %oh, %owr1, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#5, %y[%z, %oh, %owr1, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#6, %y[%z, %oh, %owr1, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#7, %y[%z, %oh, %owr1, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>

            %owr2 = arith.addi %ow0, %r2 : index
            vector.store %h#8, %y[%z, %oh, %owr2, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#9, %y[%z, %oh, %owr2, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#10, %y[%z, %oh, %owr2, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#11, %y[%z, %oh, %owr2, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>

            %owr3 = arith.addi %ow0, %r3 : index
            vector.store %h#12, %y[%z, %oh, %owr3, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#13, %y[%z, %oh, %owr3, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#14, %y[%z, %oh, %owr3, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#15, %y[%z, %oh, %owr3, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>

            %owr4 = arith.addi %ow0, %r4 : index
            vector.store %h#16, %y[%z, %oh, %owr4, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#17, %y[%z, %oh, %owr4, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#18, %y[%z, %oh, %owr4, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#19, %y[%z, %oh, %owr4, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>

            %owr5 = arith.addi %ow0, %r5 : index
            vector.store %h#20, %y[%z, %oh, %owr5, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#21, %y[%z, %oh, %owr5, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#22, %y[%z, %oh, %owr5, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h#23, %y[%z, %oh, %owr5, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>


          }
          %ow0_t = arith.constant 96 : index
            %iwb_t = arith.muli %ow0_t, %sw : index
            %h_t:8 = scf.for %kh = %c0 to %kh_n step %c1 iter_args(%h0_0 = %zero, %h0_1 = %zero, %h0_2 = %zero, %h0_3 = %zero, %h1_0 = %zero, %h1_1 = %zero, %h1_2 = %zero, %h1_3 = %zero) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
              %img = arith.addi %img0, %c0 : index
              %khi = arith.addi %kh, %c0 : index
              %khd = arith.muli %kh, %dh : index
              %ih = arith.addi %ih0, %khd : index
              %t:8 = scf.for %kw = %c0 to %kw_n step %c1 iter_args(%t0_0 = %h0_0, %t0_1 = %h0_1, %t0_2 = %h0_2, %t0_3 = %h0_3, %t1_0 = %h1_0, %t1_1 = %h1_1, %t1_2 = %h1_2, %t1_3 = %h1_3) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
                %kwd = arith.muli %kw, %dw : index
                %iwk = arith.addi %iwb_t, %kwd : index
                %q:8 = scf.for %ig = %c0 to %ick_n step %c1 iter_args(%q0_0 = %t0_0, %q0_1 = %t0_1, %q0_2 = %t0_2, %q0_3 = %t0_3, %q1_0 = %t1_0, %q1_1 = %t1_1, %q1_2 = %t1_2, %q1_3 = %t1_3) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
                  %icl = arith.muli %ig, %ck : index
                  %ic = arith.addi %icg0, %icl : index
                  %wv0 = vector.load %w[%ob, %khi, %kw, %ig, %o0, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %wv1 = vector.load %w[%ob, %khi, %kw, %ig, %o1, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %wv2 = vector.load %w[%ob, %khi, %kw, %ig, %o2, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %wv3 = vector.load %w[%ob, %khi, %kw, %ig, %o3, %c0] : memref<36x1x1x64x4x16xf32>, vector<16xf32>
                  %ix0 = arith.addi %iwk, %rs0 : index
                  %xq0 = vector.load %x[%img, %ih, %ix0, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd0 = vector.bitcast %xq0 : vector<1xf32> to vector<1xi32>
                  %xs0 = vector.extract %xd0[0] : i32 from vector<1xi32>
                  %xb0 = vector.broadcast %xs0 : i32 to vector<16xi32>
                  %xv0 = vector.bitcast %xb0 : vector<16xi32> to vector<16xf32>
                  %s0_0 = vector.fma %xv0, %wv0, %q0_0 : vector<16xf32>

                  %s0_1 = vector.fma %xv0, %wv1, %q0_1 : vector<16xf32>

                  %s0_2 = vector.fma %xv0, %wv2, %q0_2 : vector<16xf32>

                  %s0_3 = vector.fma %xv0, %wv3, %q0_3 : vector<16xf32>

                  %ix1 = arith.addi %iwk, %rs1 : index
                  %xq1 = vector.load %x[%img, %ih, %ix1, %ic] : memref<1x1x98x2304xf32>, vector<1xf32>
                  %xd1 = vector.bitcast %xq1 : vector<1xf32> to vector<1xi32>
                  %xs1 = vector.extract %xd1[0] : i32 from vector<1xi32>
                  %xb1 = vector.broadcast %xs1 : i32 to vector<16xi32>
                  %xv1 = vector.bitcast %xb1 : vector<16xi32> to vector<16xf32>
                  %s1_0 = vector.fma %xv1, %wv0, %q1_0 : vector<16xf32>

                  %s1_1 = vector.fma %xv1, %wv1, %q1_1 : vector<16xf32>

                  %s1_2 = vector.fma %xv1, %wv2, %q1_2 : vector<16xf32>

                  %s1_3 = vector.fma %xv1, %wv3, %q1_3 : vector<16xf32>

                  scf.yield %s0_0, %s0_1, %s0_2, %s0_3, %s1_0, %s1_1, %s1_2, %s1_3 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
                }
                scf.yield %q#0, %q#1, %q#2, %q#3, %q#4, %q#5, %q#6, %q#7 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
              }
              scf.yield %t#0, %t#1, %t#2, %t#3, %t#4, %t#5, %t#6, %t#7 : vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>
            }
            %owr0_t = arith.addi %ow0_t, %r0 : index
            vector.store %h_t#0, %y[%z, %oh, %owr0_t, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h_t#1, %y[%z, %oh, %owr0_t, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h_t#2, %y[%z, %oh, %owr0_t, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h_t#3, %y[%z, %oh, %owr0_t, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>

            %owr1_t = arith.addi %ow0_t, %r1 : index
            vector.store %h_t#4, %y[%z, %oh, %owr1_t, %ocv0] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h_t#5, %y[%z, %oh, %owr1_t, %ocv1] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h_t#6, %y[%z, %oh, %owr1_t, %ocv2] : memref<1x1x98x2304xf32>, vector<16xf32>

            vector.store %h_t#7, %y[%z, %oh, %owr1_t, %ocv3] : memref<1x1x98x2304xf32>, vector<16xf32>


        }

        return
      }
    }
}
stream.executable private @v15_wino_output {
    stream.executable.export public @v15_wino_output workgroups() -> (index, index, index) {
      %x = arith.constant 7 : index
      %y = arith.constant 1 : index
      %z = arith.constant 1 : index
      stream.return %x, %y, %z : index, index, index
    }
    builtin.module {
      func.func @v15_wino_output(%src_binding: !stream.binding, %bias_binding: !stream.binding, %dst_binding: !stream.binding, %row0: index) {
        %c0 = arith.constant 0 : index
        %c1 = arith.constant 1 : index
        %c16 = arith.constant 16 : index
        %cm = arith.constant 4 : index
        %tw_n = arith.constant 14 : index
        %ch_n = arith.constant 64 : index
        %src = stream.binding.subspan %src_binding[%c0] : !stream.binding -> memref<1x7x14x2304xf32>
        %dst = stream.binding.subspan %dst_binding[%c0] : !stream.binding -> memref<1x56x56x64xf32>
        %bias = stream.binding.subspan %bias_binding[%c0] : !stream.binding -> memref<64xf32>
        %k0 = arith.constant dense<2.000000000e+00> : vector<16xf32>
        %k1 = arith.constant dense<-2.000000000e+00> : vector<16xf32>
        %k2 = arith.constant dense<4.000000000e+00> : vector<16xf32>
        %k3 = arith.constant dense<8.000000000e+00> : vector<16xf32>
        %k4 = arith.constant dense<-8.000000000e+00> : vector<16xf32>
        %i0 = arith.constant 0 : index
        %i1 = arith.constant 1 : index
        %i2 = arith.constant 2 : index
        %i3 = arith.constant 3 : index
        %i4 = arith.constant 4 : index
        %i5 = arith.constant 5 : index
        %pos0 = arith.constant 0 : index
        %pos1 = arith.constant 64 : index
        %pos2 = arith.constant 128 : index
        %pos3 = arith.constant 192 : index
        %pos4 = arith.constant 256 : index
        %pos5 = arith.constant 320 : index
        %pos6 = arith.constant 384 : index
        %pos7 = arith.constant 448 : index
        %pos8 = arith.constant 512 : index
        %pos9 = arith.constant 576 : index
        %pos10 = arith.constant 640 : index
        %pos11 = arith.constant 704 : index
        %pos12 = arith.constant 768 : index
        %pos13 = arith.constant 832 : index
        %pos14 = arith.constant 896 : index
        %pos15 = arith.constant 960 : index
        %pos16 = arith.constant 1024 : index
        %pos17 = arith.constant 1088 : index
        %pos18 = arith.constant 1152 : index
        %pos19 = arith.constant 1216 : index
        %pos20 = arith.constant 1280 : index
        %pos21 = arith.constant 1344 : index
        %pos22 = arith.constant 1408 : index
        %pos23 = arith.constant 1472 : index
        %pos24 = arith.constant 1536 : index
        %pos25 = arith.constant 1600 : index
        %pos26 = arith.constant 1664 : index
        %pos27 = arith.constant 1728 : index
        %pos28 = arith.constant 1792 : index
        %pos29 = arith.constant 1856 : index
        %pos30 = arith.constant 1920 : index
        %pos31 = arith.constant 1984 : index
        %pos32 = arith.constant 2048 : index
        %pos33 = arith.constant 2112 : index
        %pos34 = arith.constant 2176 : index
        %pos35 = arith.constant 2240 : index
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
            %ld0_0_at = arith.addi %c, %pos0 : index
            %ld0_0 = vector.load %src[%c0, %band_row, %tw, %ld0_0_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld0_1_at = arith.addi %c, %pos1 : index
            %ld0_1 = vector.load %src[%c0, %band_row, %tw, %ld0_1_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld0_2_at = arith.addi %c, %pos2 : index
            %ld0_2 = vector.load %src[%c0, %band_row, %tw, %ld0_2_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld0_3_at = arith.addi %c, %pos3 : index
            %ld0_3 = vector.load %src[%c0, %band_row, %tw, %ld0_3_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld0_4_at = arith.addi %c, %pos4 : index
            %ld0_4 = vector.load %src[%c0, %band_row, %tw, %ld0_4_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld0_5_at = arith.addi %c, %pos5 : index
            %ld0_5 = vector.load %src[%c0, %band_row, %tw, %ld0_5_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld1_0_at = arith.addi %c, %pos6 : index
            %ld1_0 = vector.load %src[%c0, %band_row, %tw, %ld1_0_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld1_1_at = arith.addi %c, %pos7 : index
            %ld1_1 = vector.load %src[%c0, %band_row, %tw, %ld1_1_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld1_2_at = arith.addi %c, %pos8 : index
            %ld1_2 = vector.load %src[%c0, %band_row, %tw, %ld1_2_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld1_3_at = arith.addi %c, %pos9 : index
            %ld1_3 = vector.load %src[%c0, %band_row, %tw, %ld1_3_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld1_4_at = arith.addi %c, %pos10 : index
            %ld1_4 = vector.load %src[%c0, %band_row, %tw, %ld1_4_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld1_5_at = arith.addi %c, %pos11 : index
            %ld1_5 = vector.load %src[%c0, %band_row, %tw, %ld1_5_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld2_0_at = arith.addi %c, %pos12 : index
            %ld2_0 = vector.load %src[%c0, %band_row, %tw, %ld2_0_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld2_1_at = arith.addi %c, %pos13 : index
            %ld2_1 = vector.load %src[%c0, %band_row, %tw, %ld2_1_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld2_2_at = arith.addi %c, %pos14 : index
            %ld2_2 = vector.load %src[%c0, %band_row, %tw, %ld2_2_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld2_3_at = arith.addi %c, %pos15 : index
            %ld2_3 = vector.load %src[%c0, %band_row, %tw, %ld2_3_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld2_4_at = arith.addi %c, %pos16 : index
            %ld2_4 = vector.load %src[%c0, %band_row, %tw, %ld2_4_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld2_5_at = arith.addi %c, %pos17 : index
            %ld2_5 = vector.load %src[%c0, %band_row, %tw, %ld2_5_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld3_0_at = arith.addi %c, %pos18 : index
            %ld3_0 = vector.load %src[%c0, %band_row, %tw, %ld3_0_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld3_1_at = arith.addi %c, %pos19 : index
            %ld3_1 = vector.load %src[%c0, %band_row, %tw, %ld3_1_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld3_2_at = arith.addi %c, %pos20 : index
            %ld3_2 = vector.load %src[%c0, %band_row, %tw, %ld3_2_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld3_3_at = arith.addi %c, %pos21 : index
            %ld3_3 = vector.load %src[%c0, %band_row, %tw, %ld3_3_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld3_4_at = arith.addi %c, %pos22 : index
            %ld3_4 = vector.load %src[%c0, %band_row, %tw, %ld3_4_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld3_5_at = arith.addi %c, %pos23 : index
            %ld3_5 = vector.load %src[%c0, %band_row, %tw, %ld3_5_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld4_0_at = arith.addi %c, %pos24 : index
            %ld4_0 = vector.load %src[%c0, %band_row, %tw, %ld4_0_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld4_1_at = arith.addi %c, %pos25 : index
            %ld4_1 = vector.load %src[%c0, %band_row, %tw, %ld4_1_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld4_2_at = arith.addi %c, %pos26 : index
            %ld4_2 = vector.load %src[%c0, %band_row, %tw, %ld4_2_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld4_3_at = arith.addi %c, %pos27 : index
            %ld4_3 = vector.load %src[%c0, %band_row, %tw, %ld4_3_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld4_4_at = arith.addi %c, %pos28 : index
            %ld4_4 = vector.load %src[%c0, %band_row, %tw, %ld4_4_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld4_5_at = arith.addi %c, %pos29 : index
            %ld4_5 = vector.load %src[%c0, %band_row, %tw, %ld4_5_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld5_0_at = arith.addi %c, %pos30 : index
            %ld5_0 = vector.load %src[%c0, %band_row, %tw, %ld5_0_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld5_1_at = arith.addi %c, %pos31 : index
            %ld5_1 = vector.load %src[%c0, %band_row, %tw, %ld5_1_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld5_2_at = arith.addi %c, %pos32 : index
            %ld5_2 = vector.load %src[%c0, %band_row, %tw, %ld5_2_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld5_3_at = arith.addi %c, %pos33 : index
            %ld5_3 = vector.load %src[%c0, %band_row, %tw, %ld5_3_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld5_4_at = arith.addi %c, %pos34 : index
            %ld5_4 = vector.load %src[%c0, %band_row, %tw, %ld5_4_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %ld5_5_at = arith.addi %c, %pos35 : index
            %ld5_5 = vector.load %src[%c0, %band_row, %tw, %ld5_5_at] : memref<1x7x14x2304xf32>, vector<16xf32>
            %tr0_0_1 = arith.addf %ld0_0, %ld1_0 : vector<16xf32>
            %tr0_0_2 = arith.addf %tr0_0_1, %ld2_0 : vector<16xf32>
            %tr0_0_3 = arith.addf %tr0_0_2, %ld3_0 : vector<16xf32>
            %tr0_0 = arith.addf %tr0_0_3, %ld4_0 : vector<16xf32>
            %tr0_1_1 = arith.addf %ld0_1, %ld1_1 : vector<16xf32>
            %tr0_1_2 = arith.addf %tr0_1_1, %ld2_1 : vector<16xf32>
            %tr0_1_3 = arith.addf %tr0_1_2, %ld3_1 : vector<16xf32>
            %tr0_1 = arith.addf %tr0_1_3, %ld4_1 : vector<16xf32>
            %tr0_2_1 = arith.addf %ld0_2, %ld1_2 : vector<16xf32>
            %tr0_2_2 = arith.addf %tr0_2_1, %ld2_2 : vector<16xf32>
            %tr0_2_3 = arith.addf %tr0_2_2, %ld3_2 : vector<16xf32>
            %tr0_2 = arith.addf %tr0_2_3, %ld4_2 : vector<16xf32>
            %tr0_3_1 = arith.addf %ld0_3, %ld1_3 : vector<16xf32>
            %tr0_3_2 = arith.addf %tr0_3_1, %ld2_3 : vector<16xf32>
            %tr0_3_3 = arith.addf %tr0_3_2, %ld3_3 : vector<16xf32>
            %tr0_3 = arith.addf %tr0_3_3, %ld4_3 : vector<16xf32>
            %tr0_4_1 = arith.addf %ld0_4, %ld1_4 : vector<16xf32>
            %tr0_4_2 = arith.addf %tr0_4_1, %ld2_4 : vector<16xf32>
            %tr0_4_3 = arith.addf %tr0_4_2, %ld3_4 : vector<16xf32>
            %tr0_4 = arith.addf %tr0_4_3, %ld4_4 : vector<16xf32>
            %tr0_5_1 = arith.addf %ld0_5, %ld1_5 : vector<16xf32>
            %tr0_5_2 = arith.addf %tr0_5_1, %ld2_5 : vector<16xf32>
            %tr0_5_3 = arith.addf %tr0_5_2, %ld3_5 : vector<16xf32>
            %tr0_5 = arith.addf %tr0_5_3, %ld4_5 : vector<16xf32>
            %tr1_0_1 = arith.subf %ld1_0, %ld2_0 : vector<16xf32>
            %tr1_0_2 = vector.fma %k0, %ld3_0, %tr1_0_1 : vector<16xf32>
            %tr1_0 = vector.fma %k1, %ld4_0, %tr1_0_2 : vector<16xf32>
            %tr1_1_1 = arith.subf %ld1_1, %ld2_1 : vector<16xf32>
            %tr1_1_2 = vector.fma %k0, %ld3_1, %tr1_1_1 : vector<16xf32>
            %tr1_1 = vector.fma %k1, %ld4_1, %tr1_1_2 : vector<16xf32>
            %tr1_2_1 = arith.subf %ld1_2, %ld2_2 : vector<16xf32>
            %tr1_2_2 = vector.fma %k0, %ld3_2, %tr1_2_1 : vector<16xf32>
            %tr1_2 = vector.fma %k1, %ld4_2, %tr1_2_2 : vector<16xf32>
            %tr1_3_1 = arith.subf %ld1_3, %ld2_3 : vector<16xf32>
            %tr1_3_2 = vector.fma %k0, %ld3_3, %tr1_3_1 : vector<16xf32>
            %tr1_3 = vector.fma %k1, %ld4_3, %tr1_3_2 : vector<16xf32>
            %tr1_4_1 = arith.subf %ld1_4, %ld2_4 : vector<16xf32>
            %tr1_4_2 = vector.fma %k0, %ld3_4, %tr1_4_1 : vector<16xf32>
            %tr1_4 = vector.fma %k1, %ld4_4, %tr1_4_2 : vector<16xf32>
            %tr1_5_1 = arith.subf %ld1_5, %ld2_5 : vector<16xf32>
            %tr1_5_2 = vector.fma %k0, %ld3_5, %tr1_5_1 : vector<16xf32>
            %tr1_5 = vector.fma %k1, %ld4_5, %tr1_5_2 : vector<16xf32>
            %tr2_0_1 = arith.addf %ld1_0, %ld2_0 : vector<16xf32>
            %tr2_0_2 = vector.fma %k2, %ld3_0, %tr2_0_1 : vector<16xf32>
            %tr2_0 = vector.fma %k2, %ld4_0, %tr2_0_2 : vector<16xf32>
            %tr2_1_1 = arith.addf %ld1_1, %ld2_1 : vector<16xf32>
            %tr2_1_2 = vector.fma %k2, %ld3_1, %tr2_1_1 : vector<16xf32>
            %tr2_1 = vector.fma %k2, %ld4_1, %tr2_1_2 : vector<16xf32>
            %tr2_2_1 = arith.addf %ld1_2, %ld2_2 : vector<16xf32>
            %tr2_2_2 = vector.fma %k2, %ld3_2, %tr2_2_1 : vector<16xf32>
            %tr2_2 = vector.fma %k2, %ld4_2, %tr2_2_2 : vector<16xf32>
            %tr2_3_1 = arith.addf %ld1_3, %ld2_3 : vector<16xf32>
            %tr2_3_2 = vector.fma %k2, %ld3_3, %tr2_3_1 : vector<16xf32>
            %tr2_3 = vector.fma %k2, %ld4_3, %tr2_3_2 : vector<16xf32>
            %tr2_4_1 = arith.addf %ld1_4, %ld2_4 : vector<16xf32>
            %tr2_4_2 = vector.fma %k2, %ld3_4, %tr2_4_1 : vector<16xf32>
            %tr2_4 = vector.fma %k2, %ld4_4, %tr2_4_2 : vector<16xf32>
            %tr2_5_1 = arith.addf %ld1_5, %ld2_5 : vector<16xf32>
            %tr2_5_2 = vector.fma %k2, %ld3_5, %tr2_5_1 : vector<16xf32>
            %tr2_5 = vector.fma %k2, %ld4_5, %tr2_5_2 : vector<16xf32>
            %tr3_0_1 = arith.subf %ld1_0, %ld2_0 : vector<16xf32>
            %tr3_0_2 = vector.fma %k3, %ld3_0, %tr3_0_1 : vector<16xf32>
            %tr3_0_3 = vector.fma %k4, %ld4_0, %tr3_0_2 : vector<16xf32>
            %tr3_0 = arith.addf %tr3_0_3, %ld5_0 : vector<16xf32>
            %tr3_1_1 = arith.subf %ld1_1, %ld2_1 : vector<16xf32>
            %tr3_1_2 = vector.fma %k3, %ld3_1, %tr3_1_1 : vector<16xf32>
            %tr3_1_3 = vector.fma %k4, %ld4_1, %tr3_1_2 : vector<16xf32>
            %tr3_1 = arith.addf %tr3_1_3, %ld5_1 : vector<16xf32>
            %tr3_2_1 = arith.subf %ld1_2, %ld2_2 : vector<16xf32>
            %tr3_2_2 = vector.fma %k3, %ld3_2, %tr3_2_1 : vector<16xf32>
            %tr3_2_3 = vector.fma %k4, %ld4_2, %tr3_2_2 : vector<16xf32>
            %tr3_2 = arith.addf %tr3_2_3, %ld5_2 : vector<16xf32>
            %tr3_3_1 = arith.subf %ld1_3, %ld2_3 : vector<16xf32>
            %tr3_3_2 = vector.fma %k3, %ld3_3, %tr3_3_1 : vector<16xf32>
            %tr3_3_3 = vector.fma %k4, %ld4_3, %tr3_3_2 : vector<16xf32>
            %tr3_3 = arith.addf %tr3_3_3, %ld5_3 : vector<16xf32>
            %tr3_4_1 = arith.subf %ld1_4, %ld2_4 : vector<16xf32>
            %tr3_4_2 = vector.fma %k3, %ld3_4, %tr3_4_1 : vector<16xf32>
            %tr3_4_3 = vector.fma %k4, %ld4_4, %tr3_4_2 : vector<16xf32>
            %tr3_4 = arith.addf %tr3_4_3, %ld5_4 : vector<16xf32>
            %tr3_5_1 = arith.subf %ld1_5, %ld2_5 : vector<16xf32>
            %tr3_5_2 = vector.fma %k3, %ld3_5, %tr3_5_1 : vector<16xf32>
            %tr3_5_3 = vector.fma %k4, %ld4_5, %tr3_5_2 : vector<16xf32>
            %tr3_5 = arith.addf %tr3_5_3, %ld5_5 : vector<16xf32>
            %out0_0_1 = arith.addf %tr0_0, %tr0_1 : vector<16xf32>
            %out0_0_2 = arith.addf %out0_0_1, %tr0_2 : vector<16xf32>
            %out0_0_3 = arith.addf %out0_0_2, %tr0_3 : vector<16xf32>
            %out0_0 = arith.addf %out0_0_3, %tr0_4 : vector<16xf32>
            %out0_1_1 = arith.subf %tr0_1, %tr0_2 : vector<16xf32>
            %out0_1_2 = vector.fma %k0, %tr0_3, %out0_1_1 : vector<16xf32>
            %out0_1 = vector.fma %k1, %tr0_4, %out0_1_2 : vector<16xf32>
            %out0_2_1 = arith.addf %tr0_1, %tr0_2 : vector<16xf32>
            %out0_2_2 = vector.fma %k2, %tr0_3, %out0_2_1 : vector<16xf32>
            %out0_2 = vector.fma %k2, %tr0_4, %out0_2_2 : vector<16xf32>
            %out0_3_1 = arith.subf %tr0_1, %tr0_2 : vector<16xf32>
            %out0_3_2 = vector.fma %k3, %tr0_3, %out0_3_1 : vector<16xf32>
            %out0_3_3 = vector.fma %k4, %tr0_4, %out0_3_2 : vector<16xf32>
            %out0_3 = arith.addf %out0_3_3, %tr0_5 : vector<16xf32>
            %out1_0_1 = arith.addf %tr1_0, %tr1_1 : vector<16xf32>
            %out1_0_2 = arith.addf %out1_0_1, %tr1_2 : vector<16xf32>
            %out1_0_3 = arith.addf %out1_0_2, %tr1_3 : vector<16xf32>
            %out1_0 = arith.addf %out1_0_3, %tr1_4 : vector<16xf32>
            %out1_1_1 = arith.subf %tr1_1, %tr1_2 : vector<16xf32>
            %out1_1_2 = vector.fma %k0, %tr1_3, %out1_1_1 : vector<16xf32>
            %out1_1 = vector.fma %k1, %tr1_4, %out1_1_2 : vector<16xf32>
            %out1_2_1 = arith.addf %tr1_1, %tr1_2 : vector<16xf32>
            %out1_2_2 = vector.fma %k2, %tr1_3, %out1_2_1 : vector<16xf32>
            %out1_2 = vector.fma %k2, %tr1_4, %out1_2_2 : vector<16xf32>
            %out1_3_1 = arith.subf %tr1_1, %tr1_2 : vector<16xf32>
            %out1_3_2 = vector.fma %k3, %tr1_3, %out1_3_1 : vector<16xf32>
            %out1_3_3 = vector.fma %k4, %tr1_4, %out1_3_2 : vector<16xf32>
            %out1_3 = arith.addf %out1_3_3, %tr1_5 : vector<16xf32>
            %out2_0_1 = arith.addf %tr2_0, %tr2_1 : vector<16xf32>
            %out2_0_2 = arith.addf %out2_0_1, %tr2_2 : vector<16xf32>
            %out2_0_3 = arith.addf %out2_0_2, %tr2_3 : vector<16xf32>
            %out2_0 = arith.addf %out2_0_3, %tr2_4 : vector<16xf32>
            %out2_1_1 = arith.subf %tr2_1, %tr2_2 : vector<16xf32>
            %out2_1_2 = vector.fma %k0, %tr2_3, %out2_1_1 : vector<16xf32>
            %out2_1 = vector.fma %k1, %tr2_4, %out2_1_2 : vector<16xf32>
            %out2_2_1 = arith.addf %tr2_1, %tr2_2 : vector<16xf32>
            %out2_2_2 = vector.fma %k2, %tr2_3, %out2_2_1 : vector<16xf32>
            %out2_2 = vector.fma %k2, %tr2_4, %out2_2_2 : vector<16xf32>
            %out2_3_1 = arith.subf %tr2_1, %tr2_2 : vector<16xf32>
            %out2_3_2 = vector.fma %k3, %tr2_3, %out2_3_1 : vector<16xf32>
            %out2_3_3 = vector.fma %k4, %tr2_4, %out2_3_2 : vector<16xf32>
            %out2_3 = arith.addf %out2_3_3, %tr2_5 : vector<16xf32>
            %out3_0_1 = arith.addf %tr3_0, %tr3_1 : vector<16xf32>
            %out3_0_2 = arith.addf %out3_0_1, %tr3_2 : vector<16xf32>
            %out3_0_3 = arith.addf %out3_0_2, %tr3_3 : vector<16xf32>
            %out3_0 = arith.addf %out3_0_3, %tr3_4 : vector<16xf32>
            %out3_1_1 = arith.subf %tr3_1, %tr3_2 : vector<16xf32>
            %out3_1_2 = vector.fma %k0, %tr3_3, %out3_1_1 : vector<16xf32>
            %out3_1 = vector.fma %k1, %tr3_4, %out3_1_2 : vector<16xf32>
            %out3_2_1 = arith.addf %tr3_1, %tr3_2 : vector<16xf32>
            %out3_2_2 = vector.fma %k2, %tr3_3, %out3_2_1 : vector<16xf32>
            %out3_2 = vector.fma %k2, %tr3_4, %out3_2_2 : vector<16xf32>
            %out3_3_1 = arith.subf %tr3_1, %tr3_2 : vector<16xf32>
            %out3_3_2 = vector.fma %k3, %tr3_3, %out3_3_1 : vector<16xf32>
            %out3_3_3 = vector.fma %k4, %tr3_4, %out3_3_2 : vector<16xf32>
            %out3_3 = arith.addf %out3_3_3, %tr3_5 : vector<16xf32>

            %bias_v = vector.load %bias[%c] : memref<64xf32>, vector<16xf32>
            %ep0_0_b = arith.addf %out0_0, %bias_v : vector<16xf32>
            vector.store %ep0_0_b, %dst[%n, %h0, %w0, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep0_1_b = arith.addf %out0_1, %bias_v : vector<16xf32>
            vector.store %ep0_1_b, %dst[%n, %h0, %w1, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep0_2_b = arith.addf %out0_2, %bias_v : vector<16xf32>
            vector.store %ep0_2_b, %dst[%n, %h0, %w2, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep0_3_b = arith.addf %out0_3, %bias_v : vector<16xf32>
            vector.store %ep0_3_b, %dst[%n, %h0, %w3, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep1_0_b = arith.addf %out1_0, %bias_v : vector<16xf32>
            vector.store %ep1_0_b, %dst[%n, %h1, %w0, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep1_1_b = arith.addf %out1_1, %bias_v : vector<16xf32>
            vector.store %ep1_1_b, %dst[%n, %h1, %w1, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep1_2_b = arith.addf %out1_2, %bias_v : vector<16xf32>
            vector.store %ep1_2_b, %dst[%n, %h1, %w2, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep1_3_b = arith.addf %out1_3, %bias_v : vector<16xf32>
            vector.store %ep1_3_b, %dst[%n, %h1, %w3, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep2_0_b = arith.addf %out2_0, %bias_v : vector<16xf32>
            vector.store %ep2_0_b, %dst[%n, %h2, %w0, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep2_1_b = arith.addf %out2_1, %bias_v : vector<16xf32>
            vector.store %ep2_1_b, %dst[%n, %h2, %w1, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep2_2_b = arith.addf %out2_2, %bias_v : vector<16xf32>
            vector.store %ep2_2_b, %dst[%n, %h2, %w2, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep2_3_b = arith.addf %out2_3, %bias_v : vector<16xf32>
            vector.store %ep2_3_b, %dst[%n, %h2, %w3, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep3_0_b = arith.addf %out3_0, %bias_v : vector<16xf32>
            vector.store %ep3_0_b, %dst[%n, %h3, %w0, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep3_1_b = arith.addf %out3_1, %bias_v : vector<16xf32>
            vector.store %ep3_1_b, %dst[%n, %h3, %w1, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep3_2_b = arith.addf %out3_2, %bias_v : vector<16xf32>
            vector.store %ep3_2_b, %dst[%n, %h3, %w2, %c] : memref<1x56x56x64xf32>, vector<16xf32>
            %ep3_3_b = arith.addf %out3_3, %bias_v : vector<16xf32>
            vector.store %ep3_3_b, %dst[%n, %h3, %w3, %c] : memref<1x56x56x64xf32>, vector<16xf32>
          }
        }
        return
      }
    }
}
func.func @conv_winograd__mb1ic64ih56oc64oh56kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias_prepare(%wei: !wei_buf) -> !wei_prepared {
    %w1 = tensor.expand_shape %wei [[0, 1, 2, 3]] output_shape [64, 64, 3, 3] : !wei_buf into tensor<64x64x3x3xf32>

    %w2 = tensor.expand_shape %w1 [[0, 1], [2], [3], [4]] output_shape [1, 64, 64, 3, 3] : tensor<64x64x3x3xf32> into tensor<1x64x64x3x3xf32>

    %w3 = arith.constant dense<"0x0000803E0000000000000000ABAA2ABEABAA2ABEABAA2ABEABAA2ABEABAA2A3EABAA2ABEABAA2A3DABAAAA3DABAA2A3EABAA2A3DABAAAABDABAA2A3E00000000000000000000803F"> : tensor<6x3xf32>
    %w4_z = arith.constant 0.0 : f32
    %w4_e = tensor.empty() : tensor<6x1x64x64x3xf32>
    %w4_acc = linalg.fill ins(%w4_z : f32) outs(%w4_e : tensor<6x1x64x64x3xf32>) -> tensor<6x1x64x64x3xf32>
    %w4 = linalg.generic {indexing_maps = [affine_map<(a, g, oc, ic, j, i) -> (a, i)>, affine_map<(a, g, oc, ic, j, i) -> (g, oc, ic, i, j)>, affine_map<(a, g, oc, ic, j, i) -> (a, g, oc, ic, j)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w2 : tensor<6x3xf32>, tensor<1x64x64x3x3xf32>) outs(%w4_acc : tensor<6x1x64x64x3xf32>) {
    ^bb0(%w4_c: f32, %w4_x: f32, %w4_a: f32):
      %w4_m = arith.mulf %w4_c, %w4_x : f32
      %w4_s = arith.addf %w4_a, %w4_m : f32
      linalg.yield %w4_s : f32
    } -> tensor<6x1x64x64x3xf32>
    %w5_z = arith.constant 0.0 : f32
    %w5_e = tensor.empty() : tensor<6x6x1x64x64xf32>
    %w5_acc = linalg.fill ins(%w5_z : f32) outs(%w5_e : tensor<6x6x1x64x64xf32>) -> tensor<6x6x1x64x64xf32>
    %w5 = linalg.generic {indexing_maps = [affine_map<(a, b, g, oc, ic, j) -> (b, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, g, oc, ic, j)>, affine_map<(a, b, g, oc, ic, j) -> (a, b, g, oc, ic)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction"]}
        ins(%w3, %w4 : tensor<6x3xf32>, tensor<6x1x64x64x3xf32>) outs(%w5_acc : tensor<6x6x1x64x64xf32>) {
    ^bb0(%w5_c: f32, %w5_x: f32, %w5_a: f32):
      %w5_m = arith.mulf %w5_c, %w5_x : f32
      %w5_s = arith.addf %w5_a, %w5_m : f32
      linalg.yield %w5_s : f32
    } -> tensor<6x6x1x64x64xf32>
    %w6 = tensor.collapse_shape %w5 [[0, 1, 2], [3], [4]] : tensor<6x6x1x64x64xf32> into tensor<36x64x64xf32>

    %w7 = tensor.expand_shape %w6 [[0], [1], [2, 3, 4]] output_shape [36, 64, 64, 1, 1] : tensor<36x64x64xf32> into tensor<36x64x64x1x1xf32>

    %w8 = tensor.expand_shape %w7 [[0], [1, 2, 3], [4, 5], [6], [7]] output_shape [36, 1, 4, 16, 64, 1, 1, 1] : tensor<36x64x64x1x1xf32> into tensor<36x1x4x16x64x1x1x1xf32>

    %w9_e = tensor.empty() : tensor<36x1x1x1x64x4x16x1xf32>
    %w9 = linalg.transpose ins(%w8 : tensor<36x1x4x16x64x1x1x1xf32>) outs(%w9_e : tensor<36x1x1x1x64x4x16x1xf32>) permutation = [0, 1, 6, 7, 4, 2, 3, 5]

    %w10 = tensor.collapse_shape %w9 [[0, 1], [2], [3], [4], [5], [6, 7]] : tensor<36x1x1x1x64x4x16x1xf32> into !wei_prepared

    return %w10 : !wei_prepared
}

func.func @conv_winograd__mb1ic64ih56oc64oh56kh3ph1__f32_abcd__f32_abcd__f32_abcd__bias(%src: !src_dst_buf, %w: !wei_prepared, %bias: !bias) -> !src_dst_buf {
    %v1 = tensor.expand_shape %src [[0, 1, 2, 3]] output_shape [1, 64, 56, 56] : !src_dst_buf into tensor<1x64x56x56xf32>

    %v2_e = tensor.empty() : tensor<1x56x56x64xf32>
    %v2 = linalg.transpose ins(%v1 : tensor<1x64x56x56xf32>) outs(%v2_e : tensor<1x56x56x64xf32>) permutation = [0, 2, 3, 1]

    %v3 = tensor.expand_shape %v2 [[0], [1], [2], [3, 4]] output_shape [1, 56, 56, 1, 64] : tensor<1x56x56x64xf32> into tensor<1x56x56x1x64xf32>

    %v4 = tensor.collapse_shape %v3 [[0], [1], [2], [3, 4]] : tensor<1x56x56x1x64xf32> into tensor<1x56x56x64xf32>

    %v5 = tensor.expand_shape %bias [[0, 1]] output_shape [1, 64] : !bias into tensor<1x64xf32>

    %v6 = tensor.collapse_shape %v5 [[0, 1]] : tensor<1x64xf32> into !bias

    %v7_row0 = arith.constant 0 : index
    %v7 = flow.dispatch @v7_wino_input::@v7_wino_input(%v4, %v4, %v7_row0) : (tensor<1x56x56x64xf32>, tensor<1x56x56x64xf32>, index) -> tensor<1x7x14x2304xf32>
    %v8 = tensor.collapse_shape %v7 [[0], [1, 2], [3]] : tensor<1x7x14x2304xf32> into tensor<1x98x2304xf32>

    %v9 = tensor.expand_shape %v8 [[0], [1, 2], [3, 4]] output_shape [1, 1, 98, 36, 64] : tensor<1x98x2304xf32> into tensor<1x1x98x36x64xf32>

    %v10 = tensor.collapse_shape %v9 [[0], [1], [2], [3, 4]] : tensor<1x1x98x36x64xf32> into tensor<1x1x98x2304xf32>

    %v11 = flow.dispatch @v11_brgemm::@v11_brgemm(%v10, %w) : (tensor<1x1x98x2304xf32>, !wei_prepared) -> tensor<1x1x98x2304xf32>
    %v12 = tensor.expand_shape %v11 [[0], [1], [2], [3, 4]] output_shape [1, 1, 98, 36, 64] : tensor<1x1x98x2304xf32> into tensor<1x1x98x36x64xf32>

    %v13 = tensor.collapse_shape %v12 [[0], [1, 2], [3, 4]] : tensor<1x1x98x36x64xf32> into tensor<1x98x2304xf32>

    %v14 = tensor.expand_shape %v13 [[0], [1, 2], [3]] output_shape [1, 7, 14, 2304] : tensor<1x98x2304xf32> into tensor<1x7x14x2304xf32>

    %v15_row0 = arith.constant 0 : index
    %v15_e = tensor.empty() : tensor<1x56x56x64xf32>
    %v15 = flow.dispatch @v15_wino_output::@v15_wino_output(%v14, %v6, %v15_e, %v15_row0) : (tensor<1x7x14x2304xf32>, !bias, tensor<1x56x56x64xf32>, index) -> %v15_e
    %v16_row0 = arith.constant 7 : index
    %v16 = flow.dispatch @v7_wino_input::@v7_wino_input(%v4, %v11, %v16_row0) : (tensor<1x56x56x64xf32>, tensor<1x1x98x2304xf32>, index) -> tensor<1x7x14x2304xf32>
    %v17 = tensor.collapse_shape %v16 [[0], [1, 2], [3]] : tensor<1x7x14x2304xf32> into tensor<1x98x2304xf32>

    %v18 = tensor.expand_shape %v17 [[0], [1, 2], [3, 4]] output_shape [1, 1, 98, 36, 64] : tensor<1x98x2304xf32> into tensor<1x1x98x36x64xf32>

    %v19 = tensor.collapse_shape %v18 [[0], [1], [2], [3, 4]] : tensor<1x1x98x36x64xf32> into tensor<1x1x98x2304xf32>

    %v20 = flow.dispatch @v11_brgemm::@v11_brgemm(%v19, %w) : (tensor<1x1x98x2304xf32>, !wei_prepared) -> tensor<1x1x98x2304xf32>
    %v21 = tensor.expand_shape %v20 [[0], [1], [2], [3, 4]] output_shape [1, 1, 98, 36, 64] : tensor<1x1x98x2304xf32> into tensor<1x1x98x36x64xf32>

    %v22 = tensor.collapse_shape %v21 [[0], [1, 2], [3, 4]] : tensor<1x1x98x36x64xf32> into tensor<1x98x2304xf32>

    %v23 = tensor.expand_shape %v22 [[0], [1, 2], [3]] output_shape [1, 7, 14, 2304] : tensor<1x98x2304xf32> into tensor<1x7x14x2304xf32>

    %v24_row0 = arith.constant 7 : index
    %v24 = flow.dispatch @v15_wino_output::@v15_wino_output(%v23, %v6, %v15, %v24_row0) : (tensor<1x7x14x2304xf32>, !bias, tensor<1x56x56x64xf32>, index) -> %v15
    %v25 = tensor.expand_shape %v24 [[0], [1], [2], [3, 4]] output_shape [1, 56, 56, 1, 64] : tensor<1x56x56x64xf32> into tensor<1x56x56x1x64xf32>

    %v26 = tensor.collapse_shape %v25 [[0], [1], [2], [3, 4]] : tensor<1x56x56x1x64xf32> into tensor<1x56x56x64xf32>

    %v27_e = tensor.empty() : tensor<1x64x56x56xf32>
    %v27 = linalg.transpose ins(%v26 : tensor<1x56x56x64xf32>) outs(%v27_e : tensor<1x64x56x56xf32>) permutation = [0, 3, 1, 2]

    %v28 = tensor.collapse_shape %v27 [[0, 1, 2, 3]] : tensor<1x64x56x56xf32> into !src_dst_buf

    return %v28 : !src_dst_buf
}
