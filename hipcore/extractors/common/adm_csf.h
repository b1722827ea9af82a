/*
 * The contrast sensitivity models that libvmaf's two ADMs share (integer_adm
 * and adm_tools: Watson's noise floor, Barten's CSF as in HDR-VDP 2.2.1, the
 * DLM paper's CSF): the band weights both vqhip ADMs derive before any frame.
 * Every expression keeps libvmaf's mix of float and double, so the weights
 * round as there.
 */
#ifndef VQHIP_EXTRACTORS_ADM_CSF_H
#define VQHIP_EXTRACTORS_ADM_CSF_H

/* Watson et al. 1997's quantisation step of DWT level lambda (0..3) and
 * orientation theta (0..3; ADM uses 1 for h/v, 2 for d) at normalised
 * viewing distance nvd and reference display height rdh. */
float vq_adm_watson_q(int lambda, int theta, double nvd, int rdh);
/* Barten's CSF at level lambda for luminance lum (cd/m2), times scale. */
float vq_adm_barten_csf(int lambda, double nvd, int rdh, double lum,
                        double scale);
/* The DLM paper's CSF at level lambda, theta 0 or 45 degrees. */
float vq_adm_dlm_csf(int lambda, double nvd, int rdh, int theta);

#endif
